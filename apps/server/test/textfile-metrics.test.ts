import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * deploy/textfile-metrics.sh, the writer of PgBouncer's and pgBackRest's figures for node_exporter's textfile
 * collector (docs/deployment.md, "Alerts"), on the outputs its sources give: `psql --csv -c 'SHOW POOLS'` of PgBouncer
 * 1.18 and `pgbackrest --output=json info` of pgBackRest 2.45, as recorded from the cluster's (the cluster test reads
 * the live figures through Prometheus). Here `psql` and `pgbackrest` print those recordings, or fail, so that what
 * the script makes of them (the metrics, and a file left whole when its source fails) is checked on its own.
 */

const SCRIPT = path.resolve(import.meta.dirname, '../../../deploy/textfile-metrics.sh');

// PgBouncer 1.18's SHOW POOLS, as psql --csv prints it
const POOLS = `database,user,cl_active,cl_waiting,cl_active_cancel_req,cl_waiting_cancel_req,sv_active,sv_active_cancel,sv_being_canceled,sv_idle,sv_used,sv_tested,sv_login,maxwait,maxwait_us,pool_mode
pgbouncer,pgbouncer,1,0,0,0,0,0,0,0,0,0,0,0,0,statement
portal,pgbouncer_auth,0,0,0,0,4,0,0,0,0,0,0,0,0,transaction
portal,portal_app,16,3,0,0,8,0,0,2,0,1,0,1,250000,transaction
`;

const backup = (label: string, type: string, start: number, stop: number) => ({
  label,
  type,
  error: false,
  prior: null,
  timestamp: { start, stop },
  archive: { start: '000000010000000000000006', stop: '000000010000000000000006' },
  info: { size: 30854295, delta: 30854295, repository: { size: 6086533, delta: 6086533 } },
});
// pgBackRest 2.45's info (the fields the script reads, as it prints them): a stanza with two full backups and an
// incremental, and one that holds none
const INFO = JSON.stringify([
  {
    name: 'portal',
    status: { code: 0, message: 'ok', lock: { backup: { held: false } } },
    backup: [
      backup('20261123-010000F', 'full', 1795395600, 1795395700),
      backup('20261130-184145F', 'full', 1796064105, 1796064107),
      backup('20261130-184145F_20261130-184345I', 'incr', 1796064225, 1796064229),
    ],
    archive: [{ id: '15-1', min: '000000010000000000000001', max: '00000004000000000000000F' }],
  },
  { name: 'reports', status: { code: 2, message: 'no valid backups' }, backup: [], archive: [] },
]);

let work: string;
let dir: string;
let bin: string;

/** a program on the script's PATH: prints `output`, or fails with `error` on stderr */
function fake(name: string, { output = '', error }: { output?: string; error?: string }) {
  fs.writeFileSync(path.join(work, `${name}.out`), output);
  const body = error ? `echo '${error}' >&2\nexit 2\n` : `cat '${path.join(work, `${name}.out`)}'\n`;
  fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n# arguments: $*\n${body}`, { mode: 0o755 });
}

function run(env: Record<string, string> = {}) {
  const r = spawnSync('sh', [SCRIPT, '--dir', dir], {
    env: { PATH: `${bin}:${process.env.PATH}`, PGBOUNCER_URL: 'postgresql://stats@127.0.0.1:6432/pgbouncer', ...env },
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr };
}

const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
/** the samples of a text file (`name{labels} value`), comments left out */
const samples = (name: string) =>
  read(name)
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .sort();

beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-textfile-'));
  dir = path.join(work, 'textfile');
  bin = path.join(work, 'bin');
  fs.mkdirSync(bin);
  fake('psql', { output: POOLS });
  fake('pgbackrest', { output: INFO });
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

describe('deploy/textfile-metrics.sh', () => {
  it("writes PgBouncer's pools, each column found by its name, as gauges by database and user", () => {
    expect(run()).toEqual({ status: 0, stderr: '' });
    const lines = samples('pgbouncer.prom').filter((l) => l.includes('user="portal_app"'));
    expect(lines).toEqual([
      'pgbouncer_active_clients{database="portal",user="portal_app"} 16',
      'pgbouncer_active_servers{database="portal",user="portal_app"} 8',
      'pgbouncer_idle_servers{database="portal",user="portal_app"} 2',
      'pgbouncer_max_wait_seconds{database="portal",user="portal_app"} 1.250000',
      'pgbouncer_waiting_clients{database="portal",user="portal_app"} 3',
    ]);
    expect(samples('pgbouncer.prom')).toHaveLength(15);
    expect(read('pgbouncer.prom')).toContain('# TYPE pgbouncer_waiting_clients gauge');
  });

  it("writes pgBackRest's stanzas: each one's status, the newest backup of each type, how many", () => {
    run();
    expect(samples('pgbackrest.prom')).toEqual([
      'pgbackrest_backups{stanza="portal",type="full"} 2',
      'pgbackrest_backups{stanza="portal",type="incr"} 1',
      'pgbackrest_last_backup_completion_timestamp_seconds{stanza="portal",type="full"} 1796064107',
      'pgbackrest_last_backup_completion_timestamp_seconds{stanza="portal",type="incr"} 1796064229',
      'pgbackrest_stanza_status{stanza="portal"} 0',
      'pgbackrest_stanza_status{stanza="reports"} 2',
    ]);
  });

  it('is read by promtool as valid exposition text', () => {
    run();
    for (const file of ['pgbouncer.prom', 'pgbackrest.prom']) {
      const r = spawnSync('promtool', ['check', 'metrics'], { input: read(file), encoding: 'utf8' });
      expect(r.error, 'promtool (Debian: prometheus)').toBeUndefined();
      // check metrics also lints names (a gauge ending in _total, ...): nothing to say
      expect(`${r.stdout}${r.stderr}`, file).toBe('');
      expect(r.status, file).toBe(0);
    }
  });

  it('leaves a file as it was when its source fails, says why, and still writes the other', () => {
    run();
    const before = read('pgbouncer.prom');
    fs.utimesSync(path.join(dir, 'pgbouncer.prom'), new Date(0), new Date(0));
    fake('psql', { error: 'psql: error: connection to server failed: FATAL:  not allowed' });
    fake('pgbackrest', { output: INFO.replace('"code":0,"message":"ok"', '"code":2,"message":"no valid backups"') });
    const r = run();
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/pgbouncer\.prom not written: psql: error: connection to server failed: FATAL: {2}not allowed/);
    expect(read('pgbouncer.prom')).toBe(before);
    // its mtime, which node_exporter reports (node_textfile_mtime_seconds), stays old: TextfileMetricsStale
    expect(fs.statSync(path.join(dir, 'pgbouncer.prom')).mtimeMs).toBe(0);
    expect(samples('pgbackrest.prom')).toContain('pgbackrest_stanza_status{stanza="portal"} 2');
    // nothing half-written left beside them
    expect(fs.readdirSync(dir).sort()).toEqual(['pgbackrest.prom', 'pgbouncer.prom']);
  });

  it('writes no pgbouncer.prom without PGBOUNCER_URL, and no pgbackrest.prom with PGBACKREST_CONFIG=none', () => {
    expect(run({ PGBOUNCER_URL: '', PGBACKREST_CONFIG: 'none' }).status).toBe(0);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses to run without --dir', () => {
    const r = spawnSync('sh', [SCRIPT], { encoding: 'utf8' });
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('--dir DIR is required');
  });
});
