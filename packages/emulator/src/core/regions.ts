/**
 * OCI regions the emulator knows: the region identifier used in `/r/<region>/` paths and in
 * configs, and the short key that OCIDs carry (`ocid1.drplan.oc1.iad.…`). Taken from OCI's
 * published region list (commercial realm `oc1`): every oc1 region oci-common 2.139.1 knows
 * (test/regions.test.ts checks that).
 */
const REGION_KEYS: Record<string, string> = {
  'us-ashburn-1': 'iad',
  'us-phoenix-1': 'phx',
  'us-sanjose-1': 'sjc',
  'us-chicago-1': 'ord',
  'ca-toronto-1': 'yyz',
  'ca-montreal-1': 'yul',
  'uk-london-1': 'lhr',
  'uk-cardiff-1': 'cwl',
  'eu-frankfurt-1': 'fra',
  'eu-amsterdam-1': 'ams',
  'eu-zurich-1': 'zrh',
  'eu-paris-1': 'cdg',
  'eu-marseille-1': 'mrs',
  'eu-milan-1': 'lin',
  'eu-stockholm-1': 'arn',
  'eu-madrid-1': 'mad',
  'ap-tokyo-1': 'nrt',
  'ap-osaka-1': 'kix',
  'ap-seoul-1': 'icn',
  'ap-chuncheon-1': 'yny',
  'ap-mumbai-1': 'bom',
  'ap-hyderabad-1': 'hyd',
  'ap-sydney-1': 'syd',
  'ap-melbourne-1': 'mel',
  'ap-singapore-1': 'sin',
  'sa-saopaulo-1': 'gru',
  'sa-santiago-1': 'scl',
  'sa-vinhedo-1': 'vcp',
  'me-jeddah-1': 'jed',
  'me-dubai-1': 'dxb',
  'il-jerusalem-1': 'mtz',
  'af-johannesburg-1': 'jnb',
  'mx-queretaro-1': 'qro',
  'mx-monterrey-1': 'mty',
  'me-abudhabi-1': 'auh',
  'me-riyadh-1': 'ruh',
  'us-saltlake-2': 'aga',
  'sa-bogota-1': 'bog',
  'sa-valparaiso-1': 'vap',
  'ap-singapore-2': 'xsp',
  'ap-delhi-1': 'onm',
  'ap-batam-1': 'hsg',
  'ap-kulai-2': 'jbp',
  'eu-madrid-3': 'orf',
  'eu-turin-1': 'nrq',
  'af-casablanca-1': 'lej',
};

export function isKnownRegion(region: string): boolean {
  return Object.prototype.hasOwnProperty.call(REGION_KEYS, region);
}

/** The short key OCIDs carry for a region (`us-ashburn-1` → `iad`). */
export function regionKey(region: string): string {
  const key = REGION_KEYS[region];
  if (!key) throw new Error(`unknown region ${region}`);
  return key;
}

/** The region an OCID was minted in, if it carries a known region key. */
export function regionOfOcid(ocid: string): string | undefined {
  const key = ocid.split('.')[3];
  return Object.keys(REGION_KEYS).find((region) => REGION_KEYS[region] === key);
}
