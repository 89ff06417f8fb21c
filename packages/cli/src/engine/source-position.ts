// Where the program registered a resource, as Pulumi records it in the state (ResourceV3's
// `sourcePosition`).
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** pulumirpc.SourcePosition, as the SDK sends it with a registration or a read (its caller's frame). */
export interface SourcePositionMessage {
  uri: string;
  line: number;
  column: number;
}

/** Bytes Go's url.URL leaves as they are in a path (shouldEscape with encodePath). */
const PATH_SAFE = /[A-Za-z0-9\-_.~$&+,/:;=@]/;

/**
 * `project:///<file relative to the project's folder>#<line>[,<column>]`, as Pulumi's resource
 * monitor words it (pkg/resource/deploy/source_eval.go sourcePositions.parseSourcePosition, the
 * path escaped as url.URL.String escapes it); undefined, so none is recorded, for a position it
 * refuses (no line, a negative column, not a file: URI).
 */
export function sourcePosition(position: SourcePositionMessage | undefined, projectRoot: string): string | undefined {
  if (!position || !(position.line > 0) || position.column < 0) return undefined;
  let file: string;
  try {
    file = fileURLToPath(position.uri);
  } catch {
    return undefined;
  }
  if (!isAbsolute(file)) return undefined;
  const path = `/${relative(projectRoot, file).split(sep).join('/')}`;
  const escaped = [...Buffer.from(path, 'utf8')]
    .map((b) =>
      PATH_SAFE.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
  return `project://${escaped}#${position.line}${position.column ? `,${position.column}` : ''}`;
}
