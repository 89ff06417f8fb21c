import { summaryDuration, timeAgo } from '../display/format';
import { goLocalTime } from '../display/go-time';
import { colourOn } from '../display/modes';
import { UserError } from '../errors';
import { goJson, goOrder } from '../go-json';
import { readHistory, type UpdateInfo } from '../engine/history';
import { DECRYPT_WORDS } from '../project/config';
import { containsSecure } from '../project/config-path';
import { SecretValueError } from '../secrets/passphrase';
import { stackCrypter } from '../secrets/stack-crypter';
import type { GlobalOptions } from './options';
import { openStack } from './context';
import { reveal } from './config';
type Crypter = ReturnType<typeof stackCrypter>;

interface HistoryOptions extends GlobalOptions {
  showSecrets?: boolean;
  pageSize: number;
  page: number;
  fullDates?: boolean;
}

/** What stack_history.go prints for a value it cannot decrypt (errorDecryptingValue). */
const ERROR_DECRYPTING = 'ERROR_UNABLE_TO_DECRYPT';

/**
 * `stack history [--json] [--show-secrets] [--page-size n] [--page n] [--full-dates]`, as Pulumi's
 * (pkg/cmd/pulumi/stack/stack_history.go) with a DIY backend: the stack's updates, newest first,
 * a page of them (10 by default), as text (displayUpdatesConsole) or JSON (displayUpdatesJSON),
 * whose config shows secrets only with --show-secrets.
 */
export function stackHistory(options: HistoryOptions): void {
  const { project, stack, file } = openStack(options);
  let updates: UpdateInfo[];
  try {
    updates = readHistory(project.dir, stack, options.pageSize, options.page);
  } catch (e) {
    throw new UserError(`getting history: ${(e as Error).message}`);
  }
  if (options.json) {
    const crypter = stackCrypter(file);
    const json = updates.map((u) =>
      updateJson(u, (raw) => configValueJson(raw, crypter, Boolean(options.showSecrets))),
    );
    process.stdout.write(`${goJson(json, { indent: '  ' })}\n`);
    return;
  }
  process.stdout.write(updatesText(updates, options));
}

/** updateInfoJSON: its fields in their order; a map's keys (environment, config, resourceChanges) in Go's. */
function updateJson(update: UpdateInfo, configValue: (raw: unknown) => unknown): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const key of goOrder(Object.keys(update.config ?? {}))) config[key] = configValue(update.config[key]);
  return {
    version: update.version ?? 0,
    kind: update.kind,
    startTime: isoTime(update.startTime),
    message: update.message ?? '',
    environment: update.environment ? ordered(update.environment) : null,
    config,
    ...(update.result ? { result: update.result } : {}),
    // Those of an update that is over: a DIY backend records no other.
    endTime: isoTime(update.endTime),
    resourceChanges: ordered(update.resourceChanges ?? {}),
  };
}

/**
 * configValueJSON: `value` (an object's as JSON text, with `objectValue` beside it) unless the value
 * is secret and secrets are not shown; a secret that cannot be decrypted reads ERROR_UNABLE_TO_DECRYPT.
 */
function configValueJson(raw: unknown, crypter: Crypter, showSecrets: boolean): Record<string, unknown> {
  const secret = containsSecure(raw);
  if (secret && !showSecrets) return { secret };
  try {
    return { ...reveal(crypter, raw, DECRYPT_WORDS.history), secret };
  } catch (e) {
    if (e instanceof SecretValueError) return { value: ERROR_DECRYPTING, secret };
    throw e;
  }
}

function ordered(map: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(goOrder(Object.keys(map)).map((k) => [k, map[k]]));
}

/** cmd.FormatTime of a Unix time in UTC: `2026-11-27T18:47:07.000Z`. */
function isoTime(seconds: number): string {
  return new Date((seconds ?? 0) * 1000).toISOString();
}

/** displayUpdatesConsole: each update's kind, status, message, changes, times and environment. */
function updatesText(updates: UpdateInfo[], options: HistoryOptions): string {
  if (updates.length === 0)
    return options.page > 1 ? `No stack updates found on page '${options.page}'\n` : 'Stack has never been updated\n';
  const colour = colourOn(options.color, Boolean(process.stdout.isTTY));
  const paint = (code: string, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const out: string[] = [];
  for (const update of updates) {
    out.push(`Version: ${update.version ?? 0}\n`, `UpdateKind: ${update.kind}\n`);
    out.push(`${paint(update.result === 'succeeded' ? '32' : '31', `Status: ${update.result}`)}\n`);
    out.push(`Message: ${update.message ?? ''}\n`);
    const changes = update.resourceChanges ?? {};
    for (const [background, sign, op] of [
      ['42', '+', 'create'],
      ['41', '-', 'delete'],
      ['43', '~', 'update'],
      ['44', ' ', 'same'],
    ])
      out.push(paint(`${background};30`, `${sign}${changes[op] ?? 0}`));
    const start = new Date(update.startTime * 1000);
    const when = options.fullDates ? goLocalTime(start.toISOString()) : timeAgo(start);
    out.push(` Updated ${when} took ${summaryDuration((update.endTime - update.startTime) * 1000)}\n`);
    const environment = update.environment ?? {};
    for (const key of Object.keys(environment).sort()) {
      const value = environment[key];
      if (!value.trim()) continue;
      out.push(key === 'git.head' ? `    ${paint('33', `${key}: ${value}`)}\n` : `    ${key}: ${value}\n`);
    }
    out.push('\n');
  }
  return out.join('');
}
