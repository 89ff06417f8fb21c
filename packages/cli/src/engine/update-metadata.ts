// An update's message and environment as Pulumi's CLI gathers them before it runs
// (pkg/cmd/pulumi/metadata/metadata.go GetUpdateMetadata): which PULUMI_* variables and flags
// are set (addPulumiCLIMetadataToEnvironment), the VCS keys (addVCSMetadata: from the
// git checkout the program is in, else from PULUMI_VCS_* and PULUMI_GIT_* variables), the CI keys
// (addCIMetadataToEnvironment, sdk/go/common/util/ciutil) and the agent that drives the CLI
// (addExecutionMetadataToEnvironment, sdk/go/common/util/agentdetect). Pulumi reads the repository
// with go-git and runs `git status` for git.dirty; ocikit asks the git binary for all of it.
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { findUp } from '../project/project';
import { envFlag } from '../env';

type Env = Record<string, string | undefined>;

export interface UpdateMetadata {
  message: string;
  environment: Record<string, string>;
}

/**
 * GetUpdateMetadata's VCS, CI and agent keys, and the message: `message` (-m) unless it is empty,
 * then the HEAD commit's title. The git queries run concurrently and the promise never rejects:
 * without git, outside a repository or with one git cannot read, the keys are missing (Pulumi
 * logs such errors at verbosity 3 and goes on).
 */
export async function gatherUpdateMetadata(
  projectDir: string,
  message: string,
  flags: Record<string, unknown> = {},
  env: Env = process.env,
): Promise<UpdateMetadata> {
  const m: UpdateMetadata = { message, environment: { ...pulumiEnvMetadata(env), ...pulumiFlagMetadata(flags) } };
  const ci = ciVars(env);
  // gitutil.GetGitRepository: a `.git` (folder, or a worktree's file) here or in a folder above.
  if (findUp(projectDir, ['.git'], existsSync)) await addGitMetadata(projectDir, m, ci);
  else addGitMetadataFromEnvironment(m, ci, env);
  addCIMetadata(m.environment, ci);
  const agent = detectAgent(env);
  if (agent) m.environment['exec.agent'] = agent;
  return m;
}

// The bool variables Pulumi declares (sdk/go/common/env/env.go, env.Bool), by their full names;
// an alternative (older) name is not declared as a variable of its own.
const BOOL_VARIABLES: ReadonlySet<string> = new Set(
  [
    'AUTO_UPDATE_CLI',
    'AUTOMATION_API_SKIP_VERSION_CHECK',
    'CONTINUE_ON_ERROR',
    'COPILOT',
    'DEBUG_COMMANDS',
    'DEV',
    'DISABLE_AUTOMATIC_PLUGIN_ACQUISITION',
    'DISABLE_OUTPUT_VALUES',
    'DISABLE_PROVIDER_PREVIEW',
    'DISABLE_RESOURCE_REFERENCES',
    'DISABLE_SECRET_CACHE',
    'DISABLE_VALIDATION',
    'DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS',
    'DIY_BACKEND_GZIP',
    'DIY_BACKEND_LEGACY_LAYOUT',
    'DIY_BACKEND_NO_LEGACY_WARNING',
    'DIY_BACKEND_RETAIN_CHECKPOINTS',
    'ENABLE_LEGACY_DIFF',
    'ENABLE_LEGACY_REFRESH_DIFF',
    'ERROR_ON_DEPENDENCY_CYCLES',
    'ERROR_OUTPUT_STRING',
    'EXPERIMENTAL',
    'FALLBACK_TO_STATE_SECRETS_MANAGER',
    'IGNORE_AMBIENT_PLUGINS',
    'PARALLEL_DIFF',
    'RUN_PROGRAM',
    'SKIP_CHECKPOINTS',
    'SKIP_CONFIRMATIONS',
    'SKIP_UPDATE_CHECK',
    'SUPPRESS_COPILOT_LINK',
  ].map((name) => `PULUMI_${name}`),
);

/**
 * addPulumiCLIMetadataToEnvironment's variables: `pulumi.env.<name>` for each PULUMI_* variable
 * set (empty too), never its value: `true` or `false` (1 or true, any case) for a bool Pulumi
 * declares, `set` for any other.
 */
function pulumiEnvMetadata(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('PULUMI_') || value === undefined) continue;
    out[`pulumi.env.${name}`] = BOOL_VARIABLES.has(name) ? String(envFlag(name, undefined, env)) : 'set';
  }
  return out;
}

// Flags that take an optional value which Pulumi declares as strings (StringVarP with a
// NoOptDefVal: up.go, preview.go, refresh.go and destroy.go `refresh`, `suppress-permalink`).
const STRING_FLAGS: ReadonlySet<string> = new Set(['refresh', 'suppress-permalink']);

/**
 * addPulumiCLIMetadataToEnvironment's flags (flags.Visit: those given on the command line):
 * `pulumi.flag.<long name>`, `true` or `false` for a bool flag (its value), `set` for any other.
 */
function pulumiFlagMetadata(flags: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(flags))
    out[`pulumi.flag.${name}`] = typeof value === 'boolean' && !STRING_FLAGS.has(name) ? String(value) : 'set';
  return out;
}

interface GitResult {
  code: number;
  stdout: string;
}

function git(args: string[], cwd: string): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout: stdout ?? '' });
    });
  });
}

/** isGitWorkTreeDirty: whether `git status --porcelain -z` prints anything (undefined when it fails). */
function gitDirty(cwd: string): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    let output = false;
    const child = spawn('git', ['--no-optional-locks', 'status', '--porcelain', '-z'], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.on('data', (d: Buffer) => (output ||= d.length > 0));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? output : undefined));
  });
}

/**
 * addGitRemoteMetadataToMap and addGitCommitMetadata: vcs.owner, vcs.repo and vcs.kind from the
 * `origin` remote's (first) URL, vcs.root (the project's folder relative to the worktree's, `.`
 * at its top; only with a remote); git.head, git.headName (`refs/heads/<branch>`; in a detached
 * HEAD the CI's branch, else none), git.committer(.email), git.author(.email) and git.dirty
 * (`true`/`false`) of HEAD's commit, and its title as the message when there is none.
 */
async function addGitMetadata(projectDir: string, m: UpdateMetadata, ci: CIVars): Promise<void> {
  const [revParse, commit, remote, dirty] = await Promise.all([
    git(['rev-parse', '--show-toplevel', 'HEAD', '--symbolic-full-name', 'HEAD'], projectDir),
    git(['cat-file', 'commit', 'HEAD'], projectDir),
    git(['config', '--get-all', 'remote.origin.url'], projectDir),
    gitDirty(projectDir),
  ]);
  const env = m.environment;
  const [topLevel, head, headRef] = revParse.stdout.split('\n');
  const remoteURL = remote.code === 0 ? remote.stdout.split('\n')[0] : '';
  if (remoteURL) {
    const info = tryGetVCSInfo(remoteURL);
    if (info) Object.assign(env, { 'vcs.owner': info.owner, 'vcs.repo': info.repo, 'vcs.kind': info.kind });
    if (topLevel) {
      try {
        const rel = relative(realpathSync(topLevel), realpathSync(projectDir)).split(sep).join('/');
        if (!rel.startsWith('..')) env['vcs.root'] = rel || '.';
      } catch {
        // (a folder that cannot be resolved: no vcs.root, as Pulumi's EvalSymlinks error)
      }
    }
  }
  if (revParse.code !== 0 || commit.code !== 0) return;
  env['git.head'] = head;
  const headName = headRef === 'HEAD' && ci.branchName ? ci.branchName : headRef;
  if (headName !== 'HEAD') env['git.headName'] = headName;
  const parsed = parseCommit(commit.stdout);
  let msg = parsed.message.trim();
  if (msg === '' && ci.commitMessage) msg = ci.commitMessage;
  if (m.message === '') m.message = gitCommitTitle(msg);
  env['git.committer'] = parsed.committer.name;
  env['git.committer.email'] = parsed.committer.email;
  env['git.author'] = parsed.author.name;
  env['git.author.email'] = parsed.author.email;
  if (dirty !== undefined) env['git.dirty'] = String(dirty);
}

interface Signature {
  name: string;
  email: string;
}

/** A raw commit object (`git cat-file commit`): its author, committer and message, as go-git decodes them. */
function parseCommit(raw: string): { author: Signature; committer: Signature; message: string } {
  const blank = raw.indexOf('\n\n');
  const headers = (blank < 0 ? raw : raw.slice(0, blank)).split('\n');
  const signature = (key: string): Signature => {
    const line = headers.find((h) => h.startsWith(`${key} `))?.slice(key.length + 1) ?? '';
    const open = line.indexOf('<');
    const close = line.indexOf('>', open);
    if (open < 0 || close < 0) return { name: line.trim(), email: '' };
    return { name: line.slice(0, open).trim(), email: line.slice(open + 1, close) };
  };
  return {
    author: signature('author'),
    committer: signature('committer'),
    message: blank < 0 ? '' : raw.slice(blank + 2),
  };
}

/** gitCommitTitle: the message up to its first line break. */
export function gitCommitTitle(s: string): string {
  return s.split('\r')[0].split('\n')[0];
}

/**
 * addGitMetadataFromEnvironment, outside any repository: the PULUMI_VCS_REPO_* and PULUMI_GIT_*
 * variables, the CI's commit message and branch where those are not set. A message found so
 * replaces -m's, as Pulumi's does.
 */
function addGitMetadataFromEnvironment(m: UpdateMetadata, ci: CIVars, env: Env): void {
  const out = m.environment;
  const set = (key: string, value: string | undefined) => {
    if (value) out[key] = value;
  };
  set('vcs.owner', env.PULUMI_VCS_REPO_OWNER);
  set('vcs.repo', env.PULUMI_VCS_REPO_NAME);
  set('vcs.kind', env.PULUMI_VCS_REPO_KIND);
  set('vcs.root', env.PULUMI_VCS_REPO_ROOT);
  const message = env.PULUMI_GIT_COMMIT_MESSAGE || ci.commitMessage;
  if (message) m.message = gitCommitTitle(message);
  set('git.headName', env.PULUMI_GIT_HEAD_NAME || ci.branchName);
  set('git.head', env.PULUMI_GIT_HEAD);
  set('git.committer', env.PULUMI_GIT_COMMITTER);
  set('git.committer.email', env.PULUMI_GIT_COMMITTER_EMAIL);
  set('git.author', env.PULUMI_GIT_AUTHOR);
  set('git.author.email', env.PULUMI_GIT_AUTHOR_EMAIL);
}

export interface VCSInfo {
  owner: string;
  repo: string;
  kind: string;
}

// gitutil's patterns (sdk/go/common/util/gitutil/git.go), and go-git's for an scp-like address.
const CLOUD_SSH = /git@(?<host>[a-zA-Z.-]*\.[a-zA-Z]+):(?<project>[^/]+\/[^/]+\.git).?$/;
const AZURE_SSH = /git@([a-zA-Z]+\.)?(?<host>([a-zA-Z]+\.)*[a-zA-Z]*\.[a-zA-Z]+):(v[0-9]{1}\/)?(?<project>.*)/;
const LEGACY_AZURE = /(?<owner>[a-zA-Z0-9-]*).visualstudio.com$/;
const SCP_LIKE = /^(?:[^@]+@)?[^:\s]+:(?:[0-9]{1,5}(?:\/|:))?[^\\].*\/[^\\].*$/;
const HAS_SCHEME = /^[^:]+:\/\//;
const AZURE_DEVOPS = 'dev.azure.com';

/**
 * gitutil.TryGetVCSInfo: the owner, repository and host of a remote URL (an ssh one through the
 * patterns above, an http(s) one from its host and path without `.git`); undefined where Pulumi's
 * returns an error (another protocol, no `owner/repo` path).
 */
export function tryGetVCSInfo(remoteURL: string): VCSInfo | undefined {
  const { kind, project } = remoteProject(remoteURL) ?? { kind: '', project: '' };
  if (project === '') return undefined;
  if (kind === AZURE_DEVOPS) {
    const [owner, rest] = splitOnce(project);
    if (rest === undefined) return undefined;
    let repo = rest;
    if (!repo.includes('_git')) {
      const [first, second] = splitOnce(repo);
      if (second === undefined) return undefined;
      repo = `${first}/_git/${second}`;
    }
    return { owner, repo, kind };
  }
  const legacy = LEGACY_AZURE.exec(kind);
  if (legacy) return { owner: legacy.groups!.owner, repo: project, kind: AZURE_DEVOPS };
  const [owner, repo] = splitOnce(project);
  return repo === undefined ? undefined : { owner, repo, kind };
}

/** go-git's transport.NewEndpoint, then TryGetVCSInfo's reading of an ssh or http(s) endpoint. */
function remoteProject(remoteURL: string): { kind: string; project: string } | undefined {
  if (!HAS_SCHEME.test(remoteURL)) return SCP_LIKE.test(remoteURL) ? sshProject(remoteURL) : undefined;
  try {
    const url = new URL(remoteURL);
    if (url.protocol === 'ssh:') return sshProject(remoteURL);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    const path = decodeURIComponent(url.pathname) + url.search + url.hash;
    return { kind: url.hostname, project: trimGit(path).replace(/^\//, '') };
  } catch {
    return undefined;
  }
}

const trimGit = (s: string) => (s.endsWith('.git') ? s.slice(0, -'.git'.length) : s);

function sshProject(remoteURL: string): { kind: string; project: string } {
  const match = CLOUD_SSH.exec(remoteURL) ?? AZURE_SSH.exec(remoteURL);
  if (!match) return { kind: '', project: '' };
  return { kind: match.groups!.host, project: trimGit(match.groups!.project) };
}

/** strings.SplitN(s, "/", 2). */
function splitOnce(s: string): [string, string | undefined] {
  const slash = s.indexOf('/');
  return slash < 0 ? [s, undefined] : [s.slice(0, slash), s.slice(slash + 1)];
}

/** ciutil.Vars. */
export interface CIVars {
  name: string;
  buildID?: string;
  buildNumber?: string;
  buildType?: string;
  buildURL?: string;
  sha?: string;
  branchName?: string;
  commitMessage?: string;
  prNumber?: string;
}

interface CISystem {
  name: string;
  /** Variables whose being set (non-empty) says it is this system. */
  detect: string[];
  /** Or variables with these values. */
  values?: Record<string, string>;
  vars?: (env: Env) => Omit<CIVars, 'name'>;
}

/** GitHub's pull_request event (GITHUB_EVENT_PATH), as githubActionsCI.GetPREvent reads it. */
function githubPullRequest(path: string | undefined): { number: number; sha: string; ref: string } | undefined {
  if (!path) return undefined;
  try {
    const event = JSON.parse(readFileSync(path, 'utf8')) as {
      number?: unknown;
      pull_request?: { head?: { sha?: unknown; ref?: unknown } };
    };
    const head = event.pull_request?.head ?? {};
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    return { number: typeof event.number === 'number' ? event.number : 0, sha: text(head.sha), ref: text(head.ref) };
  } catch {
    return undefined;
  }
}

// ciutil's detectors (detect.go) with each system's DetectVars; those without one give only their name.
const CI_SYSTEMS: CISystem[] = [
  { name: 'AppVeyor', detect: ['APPVEYOR'] },
  { name: 'AWS CodeBuild', detect: ['CODEBUILD_BUILD_ARN'] },
  { name: 'Atlassian Bamboo', detect: ['bamboo_planKey'] },
  {
    name: 'Atlassian Bitbucket Pipelines',
    detect: ['BITBUCKET_COMMIT'],
    vars: (env) => ({
      buildID: env.BITBUCKET_BUILD_NUMBER,
      buildURL: env.BITBUCKET_GIT_HTTP_ORIGIN
        ? `${env.BITBUCKET_GIT_HTTP_ORIGIN}/addon/pipelines/home#!/results/${env.BITBUCKET_BUILD_NUMBER ?? ''}`
        : undefined,
      sha: env.BITBUCKET_COMMIT,
      branchName: env.BITBUCKET_BRANCH,
      prNumber: env.BITBUCKET_PR_ID,
    }),
  },
  {
    name: 'Azure Pipelines',
    detect: ['TF_BUILD'],
    vars: (env) => {
      const github = env.BUILD_REPOSITORY_PROVIDER === 'GitHub';
      const prNumber = github ? env.SYSTEM_PULLREQUEST_PULLREQUESTNUMBER : env.SYSTEM_PULLREQUEST_PULLREQUESTID;
      const org = (env.SYSTEM_TEAMFOUNDATIONCOLLECTIONURI ?? '').replace(/\/$/, '');
      return {
        buildID: env.BUILD_BUILDID,
        buildType: env.BUILD_REASON,
        sha: github ? env.SYSTEM_PULLREQUEST_SOURCECOMMITID : env.BUILD_SOURCEVERSION,
        commitMessage: env.BUILD_SOURCEVERSIONMESSAGE,
        buildURL: `${org}/${env.SYSTEM_TEAMPROJECT ?? ''}/_build/results?buildId=${env.BUILD_BUILDID ?? ''}`,
        prNumber,
        branchName: prNumber ? env.SYSTEM_PULLREQUEST_SOURCEBRANCH : env.BUILD_SOURCEBRANCHNAME,
      };
    },
  },
  {
    name: 'Buildkite',
    detect: ['BUILDKITE'],
    vars: (env) => {
      const pr = env.BUILDKITE_PULL_REQUEST ?? '';
      return {
        branchName: env.BUILDKITE_BRANCH,
        buildID: env.BUILDKITE_BUILD_ID,
        buildNumber: env.BUILDKITE_BUILD_NUMBER,
        buildURL: env.BUILDKITE_BUILD_URL,
        commitMessage: env.BUILDKITE_MESSAGE,
        // Anything but "false" (unset too) is a pull request, as buildkiteCI reads it.
        ...(pr !== 'false' ? { prNumber: pr, buildType: 'PullRequest' } : { buildType: env.BUILDKITE_SOURCE }),
        sha: env.BUILDKITE_COMMIT,
      };
    },
  },
  {
    name: 'CircleCI',
    detect: ['CIRCLECI'],
    vars: (env) => ({
      buildID: env.CIRCLE_BUILD_NUM,
      buildURL: env.CIRCLE_BUILD_URL,
      sha: env.CIRCLE_SHA1,
      branchName: env.CIRCLE_BRANCH,
    }),
  },
  {
    name: 'Codefresh',
    detect: ['CF_BUILD_URL'],
    vars: (env) => ({
      buildID: env.CF_BUILD_ID,
      buildURL: env.CF_BUILD_URL,
      sha: env.CF_REVISION,
      branchName: env.CF_BRANCH,
      commitMessage: env.CF_COMMIT_MESSAGE,
      prNumber: env.CF_PULL_REQUEST_NUMBER,
      // As codefreshCI has it: "PullRequest" when there is no pull request number.
      buildType: env.CF_PULL_REQUEST_NUMBER ? 'Push' : 'PullRequest',
    }),
  },
  { name: 'Codeship', detect: [], values: { CI_NAME: 'codeship' } },
  { name: 'Drone', detect: ['DRONE'] },
  {
    name: 'Generic CI',
    detect: ['PULUMI_CI_SYSTEM'],
    vars: (env) => ({
      branchName: env.PULUMI_CI_BRANCH_NAME,
      buildID: env.PULUMI_CI_BUILD_ID,
      buildNumber: env.PULUMI_CI_BUILD_NUMBER,
      buildType: env.PULUMI_CI_BUILD_TYPE,
      buildURL: env.PULUMI_CI_BUILD_URL,
      commitMessage: env.PULUMI_COMMIT_MESSAGE,
      prNumber: env.PULUMI_PR_NUMBER,
      sha: env.PULUMI_CI_PULL_REQUEST_SHA,
    }),
  },
  {
    name: 'GitHub Actions',
    detect: ['GITHUB_ACTIONS'],
    vars: (env) => {
      const v: Omit<CIVars, 'name'> = {
        buildID: env.GITHUB_RUN_ID,
        buildNumber: env.GITHUB_RUN_NUMBER,
        buildType: env.GITHUB_EVENT_NAME,
        branchName: env.GITHUB_REF,
        buildURL:
          env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
            ? `https://github.com/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
            : undefined,
        sha: env.GITHUB_SHA,
      };
      const event = v.buildType === 'pull_request' ? githubPullRequest(env.GITHUB_EVENT_PATH) : undefined;
      if (event) Object.assign(v, { prNumber: String(event.number), sha: event.sha, branchName: event.ref });
      return v;
    },
  },
  {
    name: 'GitLab CI/CD',
    detect: ['GITLAB_CI'],
    vars: (env) => ({
      buildID: env.CI_PIPELINE_ID,
      buildNumber: env.CI_PIPELINE_IID,
      buildType: env.CI_PIPELINE_SOURCE,
      buildURL: env.CI_JOB_URL,
      sha: env.CI_COMMIT_SHA,
      branchName: env.CI_COMMIT_REF_NAME,
      commitMessage: env.CI_COMMIT_MESSAGE,
      prNumber: env.CI_MERGE_REQUEST_IID,
    }),
  },
  { name: 'GoCD', detect: ['GO_PIPELINE_LABEL'] },
  { name: 'Hudson', detect: ['HUDSON_URL'] },
  {
    name: 'Jenkins',
    detect: ['JENKINS_URL'],
    vars: (env) => ({
      buildID: env.BUILD_NUMBER || env.BUILD_ID,
      buildURL: env.BUILD_URL,
      sha: env.GIT_COMMIT,
      branchName: env.GIT_BRANCH,
    }),
  },
  { name: 'Magnum CI', detect: ['MAGNUM'] },
  { name: 'Semaphore', detect: ['SEMAPHORE'] },
  { name: 'TaskCluster', detect: ['TASK_ID', 'RUN_ID'] },
  { name: 'TeamCity', detect: ['TEAMCITY_VERSION'] },
  {
    name: 'Travis CI',
    detect: ['TRAVIS'],
    vars: (env) => ({
      buildID: env.TRAVIS_JOB_ID,
      buildNumber: env.TRAVIS_JOB_NUMBER,
      buildType: env.TRAVIS_EVENT_TYPE,
      buildURL: env.TRAVIS_BUILD_WEB_URL,
      sha: env.TRAVIS_PULL_REQUEST_SHA,
      branchName: env.TRAVIS_BRANCH,
      commitMessage: env.TRAVIS_COMMIT_MESSAGE,
      prNumber: env.TRAVIS_PULL_REQUEST !== 'false' ? env.TRAVIS_PULL_REQUEST : undefined,
    }),
  },
];

/**
 * ciutil.DetectVars: the first CI system whose variables are set (Pulumi's detectors are a Go map,
 * so which of several wins is left to chance there; here the order above), none with
 * PULUMI_DISABLE_CI_DETECTION. The generic one is named by PULUMI_CI_SYSTEM.
 */
export function ciVars(env: Env = process.env): CIVars {
  if (env.PULUMI_DISABLE_CI_DETECTION) return { name: '' };
  const system = CI_SYSTEMS.find(
    ({ detect, values = {} }) => detect.some((v) => env[v]) || Object.entries(values).some(([k, v]) => env[k] === v),
  );
  if (!system) return { name: '' };
  const name = system.name === 'Generic CI' ? (env.PULUMI_CI_SYSTEM ?? '') : system.name;
  return { name, ...system.vars?.(env) };
}

/** addCIMetadataToEnvironment: ci.system and the CI's build and pull request values that are set. */
function addCIMetadata(out: Record<string, string>, ci: CIVars): void {
  if (!ci.name) return;
  out['ci.system'] = ci.name;
  const keys: [string, string | undefined][] = [
    ['ci.build.id', ci.buildID],
    ['ci.build.number', ci.buildNumber],
    ['ci.build.type', ci.buildType],
    ['ci.build.url', ci.buildURL],
    ['ci.pr.headSHA', ci.sha],
    ['ci.pr.number', ci.prNumber],
  ];
  for (const [key, value] of keys) if (value) out[key] = value;
}

// agentdetect.Detect's markers, in its order (specific ones before broad ones).
const AGENTS: [string, string[]][] = [
  ['cursor', ['CURSOR_TRACE_ID']],
  ['cursor-cli', ['CURSOR_AGENT']],
  ['gemini', ['GEMINI_CLI']],
  ['codex', ['CODEX_SANDBOX', 'CODEX_CI', 'CODEX_THREAD_ID']],
  ['antigravity', ['ANTIGRAVITY_AGENT']],
  ['augment-cli', ['AUGMENT_AGENT']],
  ['opencode', ['OPENCODE', 'OPENCODE_CALLER', 'OPENCODE_CLIENT']],
  ['cowork', ['CLAUDE_CODE_IS_COWORK']],
  ['claude', ['CLAUDECODE', 'CLAUDE_CODE']],
  ['replit', ['REPL_ID']],
  ['github-copilot', ['COPILOT_MODEL', 'COPILOT_ALLOW_ALL', 'COPILOT_GITHUB_TOKEN']],
  ['goose', ['GOOSE_PROVIDER']],
];

/** agentdetect.Detect: the AI agent driving the CLI (exec.agent), from AI_AGENT or its own variables. */
export function detectAgent(env: Env = process.env): string {
  const named = (env.AI_AGENT ?? '').trim().toLowerCase();
  if (named) return named === 'github-copilot-cli' ? 'github-copilot' : named;
  return AGENTS.find(([, vars]) => vars.some((v) => env[v]))?.[0] ?? '';
}
