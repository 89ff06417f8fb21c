// URNs and provider references as Pulumi builds and reads them (sdk/go/common/resource/urn.go;
// a provider reference is `urn::id`). Dependency-free, so the display can use it without loading
// the engine.

export const stackType = 'pulumi:pulumi:Stack';
export const providerPrefix = 'pulumi:providers:';

/** A URN's resource name (what follows its type; a name may itself hold `::`), or the text itself if it is no URN. */
export const urnName = (urn: string): string => urn.split('::').slice(3).join('::') || urn;

export function makeUrn(stack: string, project: string, parent: string, type: string, name: string): string {
  const parentType = parent ? urnQualifiedType(parent) : '';
  const qualified = parentType && parentType !== stackType ? `${parentType}$${type}` : type;
  return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

export function urnQualifiedType(urn: string): string {
  return urn.split('::')[2] ?? '';
}

export function splitRef(ref: string): [string, string] {
  const i = ref.lastIndexOf('::');
  return i < 0 ? [ref, ''] : [ref.slice(0, i), ref.slice(i + 2)];
}

/**
 * Pulumi's tokens.IntoQName (sdk/go/common/tokens/names.go): the `/`-separated parts without the
 * empty ones, each byte that is not a letter, digit, `_`, `.` or `-` made `_` (`https://x.io/p`
 * → `https_/x.io/p`), `_` when nothing is left.
 */
export function intoQName(s: string): string {
  const parts = s
    .split('/')
    .filter((part) => part !== '')
    .map((part) =>
      [...Buffer.from(part, 'utf8')]
        .map((b) => (/[A-Za-z0-9_.-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : '_'))
        .join(''),
    );
  return parts.join('/') || '_';
}
