import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { ciVars, detectAgent, gatherUpdateMetadata, gitCommitTitle, tryGetVCSInfo } from './update-metadata';

// Pulumi's GetUpdateMetadata (pkg/cmd/pulumi/metadata/metadata.go) and the helpers it uses:
// gitutil.TryGetVCSInfo, ciutil.DetectVars, agentdetect.Detect.

const NO_CI = { PULUMI_DISABLE_CI_DETECTION: '1' };

function gitRepo(): { dir: string; git: (...args: string[]) => string } {
  const dir = scratchDir('git');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Ada Author', '-c', 'user.email=ada@example.com', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  git('init', '-q', '-b', 'main');
  return { dir, git };
}

test('the VCS of a remote URL, as gitutil.TryGetVCSInfo reads it', () => {
  const github = { owner: 'acme', repo: 'infra', kind: 'github.com' };
  assert.deepEqual(tryGetVCSInfo('https://github.com/acme/infra.git'), github);
  assert.deepEqual(tryGetVCSInfo('https://user:token@github.com/acme/infra'), github);
  assert.deepEqual(tryGetVCSInfo('git@github.com:acme/infra.git'), github);
  // Without `.git`, an scp-like address matches gitutil's Azure pattern, with the same result.
  assert.deepEqual(tryGetVCSInfo('git@github.com:acme/infra'), github);
  // GitLab's subgroups stay in the repository's name.
  assert.deepEqual(tryGetVCSInfo('https://gitlab.com/acme/platform/infra.git'), {
    owner: 'acme',
    repo: 'platform/infra',
    kind: 'gitlab.com',
  });
  assert.deepEqual(tryGetVCSInfo('https://dev.azure.com/acme/proj/repo'), {
    owner: 'acme',
    repo: 'proj/_git/repo',
    kind: 'dev.azure.com',
  });
  assert.deepEqual(tryGetVCSInfo('https://acme.visualstudio.com/proj/_git/repo'), {
    owner: 'acme',
    repo: 'proj/_git/repo',
    kind: 'dev.azure.com',
  });
  // Another protocol, or no owner/repo path: none (Pulumi's TryGetVCSInfo returns an error).
  assert.equal(tryGetVCSInfo('/srv/git/infra.git'), undefined);
  assert.equal(tryGetVCSInfo('file:///srv/git/infra.git'), undefined);
  assert.equal(tryGetVCSInfo('https://example.com/infra'), undefined);
});

test('CI variables, as ciutil.DetectVars reads them', () => {
  assert.deepEqual(ciVars({}), { name: '' });
  const gitlab = {
    GITLAB_CI: 'true',
    CI_PIPELINE_ID: '812',
    CI_PIPELINE_IID: '17',
    CI_PIPELINE_SOURCE: 'push',
    CI_JOB_URL: 'https://gitlab.com/acme/infra/-/jobs/9',
    CI_COMMIT_SHA: 'abc123',
    CI_COMMIT_REF_NAME: 'main',
    CI_COMMIT_MESSAGE: 'from the pipeline',
  };
  assert.deepEqual(ciVars(gitlab), {
    name: 'GitLab CI/CD',
    buildID: '812',
    buildNumber: '17',
    buildType: 'push',
    buildURL: 'https://gitlab.com/acme/infra/-/jobs/9',
    sha: 'abc123',
    branchName: 'main',
    commitMessage: 'from the pipeline',
    prNumber: undefined,
  });
  assert.deepEqual(ciVars({ ...gitlab, ...NO_CI }), { name: '' });
  assert.equal(ciVars({ CI_NAME: 'codeship' }).name, 'Codeship');
  assert.equal(ciVars({ PULUMI_CI_SYSTEM: 'Homegrown' }).name, 'Homegrown');
  // A GitHub pull request's number, head commit and branch come from its event file.
  const event = join(scratchDir('event'), 'event.json');
  writeFileSync(event, JSON.stringify({ number: 42, pull_request: { head: { sha: 'feed', ref: 'fix' } } }));
  const github = ciVars({
    GITHUB_ACTIONS: 'true',
    GITHUB_RUN_ID: '7',
    GITHUB_REPOSITORY: 'acme/infra',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_SHA: 'merge',
  });
  assert.equal(github.buildURL, 'https://github.com/acme/infra/actions/runs/7');
  assert.deepEqual([github.prNumber, github.sha, github.branchName], ['42', 'feed', 'fix']);
});

test('the agent driving the CLI, as agentdetect.Detect names it', () => {
  assert.equal(detectAgent({}), '');
  assert.equal(detectAgent({ CLAUDECODE: '1' }), 'claude');
  assert.equal(detectAgent({ CURSOR_TRACE_ID: 'x', CLAUDECODE: '1' }), 'cursor');
  assert.equal(detectAgent({ AI_AGENT: ' GitHub-Copilot-CLI ', CLAUDECODE: '1' }), 'github-copilot');
});

test("a commit's title is its first line", () => {
  assert.equal(gitCommitTitle('Add the endpoint\n\nWhy it is needed.'), 'Add the endpoint');
  assert.equal(gitCommitTitle('Windows\r\nbody'), 'Windows');
});

test('in a git checkout: HEAD, its branch, author and committer, dirty or not, the remote, and the title as the message', async () => {
  const { dir, git } = gitRepo();
  git('remote', 'add', 'origin', 'git@github.com:acme/infra.git');
  mkdirSync(join(dir, 'stacks', 'dr'), { recursive: true });
  writeFileSync(join(dir, 'stacks', 'dr', 'index.ts'), '');
  git('add', '.');
  git('commit', '-q', '-m', 'Add the DR stack\n\nWith its plan.');
  const head = git('rev-parse', 'HEAD');
  const project = join(dir, 'stacks', 'dr');

  const clean = await gatherUpdateMetadata(project, '', {}, NO_CI);
  assert.equal(clean.message, 'Add the DR stack');
  assert.deepEqual(clean.environment, {
    'pulumi.env.PULUMI_DISABLE_CI_DETECTION': 'set',
    'vcs.owner': 'acme',
    'vcs.repo': 'infra',
    'vcs.kind': 'github.com',
    'vcs.root': 'stacks/dr',
    'git.head': head,
    'git.headName': 'refs/heads/main',
    'git.committer': 'Ada Author',
    'git.committer.email': 'ada@example.com',
    'git.author': 'Ada Author',
    'git.author.email': 'ada@example.com',
    'git.dirty': 'false',
  });
  // -m wins; a new file makes the checkout dirty.
  writeFileSync(join(dir, 'notes.txt'), 'x');
  const dirty = await gatherUpdateMetadata(project, 'by hand', {}, NO_CI);
  assert.equal(dirty.message, 'by hand');
  assert.equal(dirty.environment['git.dirty'], 'true');
  // A detached HEAD has no headName, unless the CI names the branch.
  git('checkout', '-q', '--detach');
  assert.equal((await gatherUpdateMetadata(project, '', {}, NO_CI)).environment['git.headName'], undefined);
  const ci = await gatherUpdateMetadata(project, '', {}, { TRAVIS: 'true', TRAVIS_BRANCH: 'release' });
  assert.equal(ci.environment['git.headName'], 'release');
  assert.equal(ci.environment['ci.system'], 'Travis CI');
});

test('a repository without a remote or commits gives what it has; outside one, the PULUMI_GIT_* variables', async () => {
  const { dir, git } = gitRepo();
  const unborn = await gatherUpdateMetadata(dir, '', {}, NO_CI);
  assert.deepEqual(unborn, { message: '', environment: { 'pulumi.env.PULUMI_DISABLE_CI_DETECTION': 'set' } });
  git('commit', '-q', '--allow-empty', '-m', 'first');
  const local = await gatherUpdateMetadata(dir, '', {}, NO_CI);
  assert.equal(local.message, 'first');
  assert.equal(local.environment['vcs.root'], undefined, 'no vcs.* keys without an origin remote');
  assert.equal(local.environment['git.dirty'], 'false');

  const outside = scratchDir('no-repo');
  assert.deepEqual(await gatherUpdateMetadata(outside, '', {}, {}), { message: '', environment: {} });
  const fromEnv = await gatherUpdateMetadata(
    outside,
    'by hand',
    {},
    {
      ...NO_CI,
      PULUMI_GIT_HEAD: 'abc',
      PULUMI_GIT_COMMIT_MESSAGE: 'Deploy\nbody',
      PULUMI_VCS_REPO_OWNER: 'acme',
    },
  );
  // As Pulumi's addGitMetadataFromEnvironment, the variable's message replaces -m's.
  assert.deepEqual(fromEnv, {
    message: 'Deploy',
    environment: {
      'pulumi.env.PULUMI_DISABLE_CI_DETECTION': 'set',
      'pulumi.env.PULUMI_GIT_HEAD': 'set',
      'pulumi.env.PULUMI_GIT_COMMIT_MESSAGE': 'set',
      'pulumi.env.PULUMI_VCS_REPO_OWNER': 'set',
      'git.head': 'abc',
      'vcs.owner': 'acme',
    },
  });
});

test('each PULUMI_* variable set is recorded by name, never by value: a bool Pulumi declares as true or false, any other as set', async () => {
  const outside = scratchDir('no-repo');
  const { environment } = await gatherUpdateMetadata(
    outside,
    '',
    {},
    {
      ...NO_CI,
      PULUMI_CONFIG_PASSPHRASE: 'hunter2',
      PULUMI_SKIP_UPDATE_CHECK: 'TRUE',
      PULUMI_EXPERIMENTAL: '0',
      PULUMI_CONTINUE_ON_ERROR: '',
      PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS: '1',
      // An older name (env.Alternative) is no declared variable: only set.
      PULUMI_RETAIN_CHECKPOINTS: 'true',
      PULUMI_PARALLEL: '4',
      NOT_PULUMI_X: 'true',
      pulumi_lower: 'true',
    },
  );
  assert.deepEqual(environment, {
    'pulumi.env.PULUMI_DISABLE_CI_DETECTION': 'set',
    'pulumi.env.PULUMI_CONFIG_PASSPHRASE': 'set',
    'pulumi.env.PULUMI_SKIP_UPDATE_CHECK': 'true',
    'pulumi.env.PULUMI_EXPERIMENTAL': 'false',
    'pulumi.env.PULUMI_CONTINUE_ON_ERROR': 'false',
    'pulumi.env.PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS': 'true',
    'pulumi.env.PULUMI_RETAIN_CHECKPOINTS': 'set',
    'pulumi.env.PULUMI_PARALLEL': 'set',
  });
});

test('each flag given is recorded by its long name: a bool flag by its value, any other as set', async () => {
  const outside = scratchDir('no-repo');
  const { environment } = await gatherUpdateMetadata(
    outside,
    '',
    {
      yes: true,
      'continue-on-error': false,
      message: 'm',
      target: ['a', 'b'],
      parallel: 4,
      refresh: true,
      'suppress-permalink': true,
    },
    {},
  );
  assert.deepEqual(environment, {
    'pulumi.flag.yes': 'true',
    'pulumi.flag.continue-on-error': 'false',
    'pulumi.flag.message': 'set',
    'pulumi.flag.target': 'set',
    'pulumi.flag.parallel': 'set',
    // Pulumi's --refresh and --suppress-permalink are strings that need no value.
    'pulumi.flag.refresh': 'set',
    'pulumi.flag.suppress-permalink': 'set',
  });
});
