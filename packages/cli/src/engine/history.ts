// A stack's update history, kept as Pulumi's DIY backend keeps it (pkg/backend/diy/state.go
// addToHistory, getHistory, renameHistory; removeStack): at the end of each update, refresh,
// destroy and import (not a preview), `<stack>-<unix nanoseconds>.history.json` (backend.UpdateInfo)
// and `<stack>-<same>.checkpoint.json` (a copy of the state as the run left it), in
// `.ocikit/history/<stack>/` where the DIY backend uses `.pulumi/history/<project>/<stack>/`.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors';
import { envFlag } from '../env';
import { goJson } from '../go-json';

/**
 * backend.UpdateInfo (pkg/backend/updates.go), its fields in their declared order: times in Unix
 * seconds, `config` as config.Map marshals it (`{ "secure": … }` for a secret), `version` 0 (the
 * DIY backend never sets it), `resourceChanges` left out when empty (`omitempty`).
 */
export interface UpdateInfo {
  kind: 'update' | 'refresh' | 'destroy' | 'resource-import';
  startTime: number;
  message: string;
  environment: Record<string, string>;
  config: Record<string, unknown>;
  version: number;
  result: 'succeeded' | 'failed';
  endTime: number;
  resourceChanges?: Record<string, number>;
}

/** The fields Go holds as maps: written with their keys sorted (and every key below them). */
const MAPS: ReadonlySet<string> = new Set(['environment', 'config', 'resourceChanges']);

export function historyDir(programDir: string, stack: string): string {
  return join(programDir, '.ocikit', 'history', stack);
}

/** Go's GOOS and GOARCH for Node's platform and arch names. */
const GO_OS: Record<string, string> = { win32: 'windows' };
const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386' };

/**
 * The update's environment as Pulumi's GetUpdateMetadata (pkg/cmd/pulumi/metadata) starts it:
 * what ran it (`pulumi.version`: `version`, ocikit's as its manifests name it; `pulumi.os`,
 * `pulumi.arch`), how (`exec.kind`: cli), its ESC environments (`stack.environments`: none) and
 * whether it used an update plan (`updatePlan`: false, as `up --plan` is refused here).
 */
export function updateEnvironment(version: string): Record<string, string> {
  return {
    'exec.kind': 'cli',
    'pulumi.arch': GO_ARCH[process.arch] ?? process.arch,
    'pulumi.os': GO_OS[process.platform] ?? process.platform,
    'pulumi.version': version,
    'stack.environments': '[]',
    updatePlan: 'false',
  };
}

/** Go's time.Now().Unix(): the update's start and end times. */
export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Now, in Unix nanoseconds (Go's time.Now().UnixNano()), as the DIY backend names the files. */
export function unixNanos(): string {
  return String(BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n));
}

/**
 * addToHistory: the update's record, then a copy of the state file beside it (none when the run
 * left no state file, where the DIY backend's copy fails and the run's own error is reported).
 * One small write and one file copy at the end of a run, whatever its size.
 */
export function addToHistory(
  state: { readonly programDir: string; readonly stack: string; readonly file: string },
  info: UpdateInfo,
): void {
  const dir = historyDir(state.programDir, state.stack);
  mkdirSync(dir, { recursive: true });
  const prefix = join(dir, `${state.stack}-${unixNanos()}`);
  const record: Record<string, unknown> = { ...info };
  if (!info.resourceChanges || Object.keys(info.resourceChanges).length === 0) delete record.resourceChanges;
  // Compact, as the DIY backend's marshaler writes it (diyJSONMarshaler: json.Encoder, no HTML escaping).
  writeFileSync(`${prefix}.history.json`, goJson(record, { maps: MAPS }), { mode: 0o600 });
  if (existsSync(state.file)) copyFileSync(state.file, `${prefix}.checkpoint.json`);
}

/**
 * getHistory: the stack's updates, newest first (the files sorted by name, reversed), a page of
 * `pageSize` (all of them when it is 0 or less; a page below 1 is the first).
 */
export function readHistory(programDir: string, stack: string, pageSize = 0, page = 1): UpdateInfo[] {
  const dir = historyDir(programDir, stack);
  if (!existsSync(dir)) return [];
  const entries = readdirSync(dir)
    .filter((f) => f.endsWith('.history.json'))
    .sort()
    .reverse();
  const start = pageSize > 0 ? (Math.max(page, 1) - 1) * pageSize : 0;
  const end = pageSize > 0 ? start + pageSize : entries.length;
  return entries.slice(start, end).map((f) => {
    const file = join(dir, f);
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as UpdateInfo;
    } catch (e) {
      throw new UserError(`reading history file ${file}: ${(e as Error).message}`);
    }
  });
}

/**
 * renameHistory: each `<from>-<time>.…` file moves to the new stack's folder as `<to>-<time>.…`;
 * a file not named so stays. The checkpoint copies are moved as they are (their URNs keep the old
 * stack's name, as the DIY backend copies them).
 */
export function renameHistory(programDir: string, from: string, to: string): void {
  const oldDir = historyDir(programDir, from);
  if (!existsSync(oldDir)) return;
  const newDir = historyDir(programDir, to);
  mkdirSync(newDir, { recursive: true });
  for (const name of readdirSync(oldDir)) {
    const dash = name.lastIndexOf('-');
    if (dash < 0 || name.slice(0, dash) !== from) continue;
    renameSync(join(oldDir, name), join(newDir, to + name.slice(dash)));
  }
  try {
    rmdirSync(oldDir);
  } catch {
    // Files that were not the stack's stay, and their folder with them.
  }
}

/** The stack's backups folder (the DIY backend's BackupDir, `.pulumi/backups/<project>/<stack>/`). */
export function backupDir(programDir: string, stack: string): string {
  return join(programDir, '.ocikit', 'backups', stack);
}

/**
 * backupStack, after addToHistory at the end of each update: a copy of the state file as
 * `<stack>.<unix nanoseconds>.json` in the backups folder. One file copy a run; none when the run
 * left no state file, or when PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS (or its older name)
 * is true, which the DIY backend's backupStack checks first.
 */
export function backupStack(state: {
  readonly programDir: string;
  readonly stack: string;
  readonly file: string;
}): void {
  if (envFlag('PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS', 'PULUMI_DISABLE_CHECKPOINT_BACKUPS')) return;
  if (!existsSync(state.file)) return;
  const dir = backupDir(state.programDir, state.stack);
  mkdirSync(dir, { recursive: true });
  copyFileSync(state.file, join(dir, `${state.stack}.${unixNanos()}.json`));
}

/** removeStack removes the stack's history, whatever else it keeps. */
export function removeHistory(programDir: string, stack: string): void {
  rmSync(historyDir(programDir, stack), { recursive: true, force: true });
}

/** removeStack with removeBackups removes the stack's backups folder too. */
export function removeBackups(programDir: string, stack: string): void {
  rmSync(backupDir(programDir, stack), { recursive: true, force: true });
}
