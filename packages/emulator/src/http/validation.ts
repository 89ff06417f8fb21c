import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { errors, type OciServiceError } from '../core/errors';

/**
 * JSON-schema validation of request shapes (types, required fields, enums, ranges) with Ajv.
 * Bodies are checked strictly (a string where a number belongs is an error, as in OCI);
 * query strings are coerced, since every query value arrives as text.
 */
const strict = new Ajv({ coerceTypes: false, useDefaults: false, allErrors: false, strict: false });
const coercing = new Ajv({ coerceTypes: 'array', useDefaults: true, allErrors: false, strict: false });

/**
 * Compiles on first use, once per distinct schema: each operation is registered under two
 * prefixes and most are rarely called, so compiling every schema up front would dominate the
 * emulator's start-up (it was ~60% of it).
 */
const compiled = new Map<string, ValidateFunction>();

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strict : coercing;
  const key = `${httpPart === 'body' ? 'strict' : 'coercing'}:${JSON.stringify(schema)}`;
  const lazy = (data: unknown): boolean => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(key, validate);
    }
    const valid = validate(data) as boolean;
    lazy.errors = validate.errors;
    return valid;
  };
  lazy.errors = null as ValidateFunction['errors'];
  return lazy;
};

/** `/planGroups/0/steps/1` + `timeout` → `planGroups[0].steps[1].timeout` */
function jsonPath(instancePath: string, property?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (property) parts.push(property);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** Turns the first schema violation into OCI's error: MissingParameter or InvalidParameter. */
export function toOciError(validation: ErrorObject[], part: string): OciServiceError {
  const first = validation[0];
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path parameter' : 'field';
  if (first.keyword === 'required') {
    return errors.missingParameter(jsonPath(first.instancePath, String(first.params.missingProperty)));
  }
  const path = jsonPath(first.instancePath);
  if (!path && part === 'body') return errors.invalidParameter('The request body must be a JSON object.');
  const detail =
    first.keyword === 'enum'
      ? `must be one of ${(first.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
      : (first.message ?? 'is not valid');
  return errors.invalidParameter(`Invalid ${where} '${path}': ${detail}.`);
}
