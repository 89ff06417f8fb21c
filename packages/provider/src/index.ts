import * as path from 'node:path';

/** Absolute path of the package schema (the single source of truth the SDK is generated from). */
export const schemaPath = path.join(__dirname, '..', 'schema.json');
