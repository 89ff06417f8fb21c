/** A URN's resource name (what follows its type; a name may itself hold `::`), or the text itself if it is no URN. */
export const urnName = (urn: string): string => urn.split('::').slice(3).join('::') || urn;
