/*
 * A CPU quota for one process tree, as a machine of its own would have a fixed CPU: a Linux
 * control group with the `cpu` controller, made and removed by the caller (root). Either
 * hierarchy is supported:
 * - cgroup v1: a group under the `cpu` mount (cpu.cfs_quota_us / cpu.cfs_period_us) and, when
 *   `cpuacct` is mounted apart from it, a group of the same name there for the CPU used
 *   (cpuacct.usage, nanoseconds);
 * - cgroup v2: a group under the unified mount with `cpu` enabled for its children (cpu.max, and
 *   cpu.stat's usage_usec).
 * A process joins by writing its pid to each group's cgroup.procs (`joinCommand` makes a shell
 * that does so and then execs the program, so the pid stays the program's and its threads and
 * children are in the group from the first instruction).
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Why no group can be made here, for a clear message. */
export class CgroupUnavailable extends Error {}

interface Hierarchy {
  version: 1 | 2;
  /** Where the quota is set (v1: the cpu mount; v2: the unified mount). */
  cpuRoot: string;
  /** Where usage is read (v1: the cpuacct mount, may be the same as cpuRoot; v2: cpuRoot). */
  acctRoot: string;
}

function mounts(): { dir: string; type: string; options: string[] }[] {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [, dir, type, options] = line.split(' ');
      return { dir: dir!, type: type!, options: (options ?? '').split(',') };
    });
}

/** The hierarchy this machine has for CPU quotas, or why there is none. */
export function cpuHierarchy(): Hierarchy {
  const all = mounts();
  const v1cpu = all.find((m) => m.type === 'cgroup' && m.options.includes('cpu'));
  if (v1cpu && existsSync(path.join(v1cpu.dir, 'cpu.cfs_quota_us'))) {
    const acct = all.find((m) => m.type === 'cgroup' && m.options.includes('cpuacct'));
    if (!acct) throw new CgroupUnavailable(`cgroup v1 cpu at ${v1cpu.dir} but no cpuacct mount`);
    return { version: 1, cpuRoot: v1cpu.dir, acctRoot: acct.dir };
  }
  for (const m of all.filter((candidate) => candidate.type === 'cgroup2')) {
    const controllers = path.join(m.dir, 'cgroup.controllers');
    if (existsSync(controllers) && readFileSync(controllers, 'utf8').split(/\s+/).includes('cpu')) {
      return { version: 2, cpuRoot: m.dir, acctRoot: m.dir };
    }
  }
  throw new CgroupUnavailable(
    'no cgroup with the cpu controller is mounted (v1: a `cgroup` mount with cpu and cpu.cfs_quota_us; v2: a `cgroup2` mount whose cgroup.controllers lists cpu)',
  );
}

/** One group with a CPU quota of `cpus` cores (e.g. 0.3), made at once; `remove()` when done. */
export class CpuGroup {
  private readonly hierarchy: Hierarchy;
  readonly cpuDir: string;
  readonly acctDir: string;
  readonly periodUs: number;
  readonly quotaUs: number;

  constructor(
    readonly name: string,
    /** The quota in cores; undefined: no quota (a group for its weight only). */
    readonly cpus: number | undefined,
    periodUs = 100_000,
    /**
     * Its share of a busy machine against the other groups and processes (v1 cpu.shares, 1024
     * the default; v2 cpu.weight gets a hundredth of it, 100 the default): above the default,
     * the group gets its quota while processes outside it compete for the cores.
     */
    shares = 1024,
  ) {
    if (cpus !== undefined && !(cpus > 0)) {
      throw new Error(`a CPU quota must be above 0 cores (got ${cpus})`);
    }
    this.hierarchy = cpuHierarchy();
    this.periodUs = periodUs;
    this.quotaUs = cpus === undefined ? -1 : Math.max(1000, Math.round(cpus * periodUs));
    const { cpuRoot, acctRoot, version } = this.hierarchy;
    this.cpuDir = path.join(cpuRoot, name);
    this.acctDir = path.join(acctRoot, name);
    try {
      if (version === 2) {
        // The root's children get the cpu controller (a no-op when it already has it).
        const control = path.join(cpuRoot, 'cgroup.subtree_control');
        if (!readFileSync(control, 'utf8').split(/\s+/).includes('cpu')) {
          writeFileSync(control, '+cpu');
        }
      }
      mkdirSync(this.cpuDir, { recursive: true });
      if (this.acctDir !== this.cpuDir) mkdirSync(this.acctDir, { recursive: true });
      if (version === 1) {
        writeFileSync(path.join(this.cpuDir, 'cpu.cfs_period_us'), String(periodUs));
        writeFileSync(path.join(this.cpuDir, 'cpu.cfs_quota_us'), String(this.quotaUs));
        writeFileSync(path.join(this.cpuDir, 'cpu.shares'), String(shares));
      } else {
        const max = this.quotaUs < 0 ? 'max' : String(this.quotaUs);
        writeFileSync(path.join(this.cpuDir, 'cpu.max'), `${max} ${periodUs}`);
        const weight = Math.min(10_000, Math.max(1, Math.round(shares / 10.24)));
        writeFileSync(path.join(this.cpuDir, 'cpu.weight'), String(weight));
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CgroupUnavailable(
        `cannot make the cgroup ${this.cpuDir} with a CPU quota (${code ?? (error as Error).message}): run as root on a machine whose cgroup ${version === 1 ? 'v1 cpu' : 'v2'} hierarchy is writable`,
      );
    }
  }

  /** The files a process's pid is written to to join the group. */
  get procsFiles(): string[] {
    const files = [path.join(this.cpuDir, 'cgroup.procs')];
    if (this.acctDir !== this.cpuDir) files.push(path.join(this.acctDir, 'cgroup.procs'));
    return files;
  }

  /** `command args…` started in the group: a shell that joins it, then execs the program. */
  joinCommand(command: string, args: string[]): { command: string; args: string[] } {
    const joins = this.procsFiles.map((file) => `echo $$ > '${file}'`).join(' && ');
    return { command: '/bin/sh', args: ['-c', `${joins} && exec "$0" "$@"`, command, ...args] };
  }

  /** Moves the calling process (and the children it starts from now on) into the group. */
  joinSelf(): void {
    for (const file of this.procsFiles) writeFileSync(file, String(process.pid));
  }

  /** Moves the calling process back to the root group (before `remove()`). */
  static leave(): void {
    const { cpuRoot, acctRoot } = cpuHierarchy();
    for (const root of new Set([cpuRoot, acctRoot])) {
      writeFileSync(path.join(root, 'cgroup.procs'), String(process.pid));
    }
  }

  /** CPU seconds the group's processes have used so far. */
  usageSeconds(): number {
    if (this.hierarchy.version === 1) {
      return Number(readFileSync(path.join(this.acctDir, 'cpuacct.usage'), 'utf8')) / 1e9;
    }
    return this.stat().get('usage_usec')! / 1e6;
  }

  /** Periods the group ran in and was throttled in (the quota used up before the period ended). */
  throttling(): { periods: number; throttled: number; throttledSeconds: number } {
    const stat = this.stat();
    return {
      periods: stat.get('nr_periods') ?? 0,
      throttled: stat.get('nr_throttled') ?? 0,
      throttledSeconds:
        this.hierarchy.version === 1
          ? (stat.get('throttled_time') ?? 0) / 1e9
          : (stat.get('throttled_usec') ?? 0) / 1e6,
    };
  }

  private stat(): Map<string, number> {
    const values = new Map<string, number>();
    for (const line of readFileSync(path.join(this.cpuDir, 'cpu.stat'), 'utf8').split('\n')) {
      const [key, value] = line.split(' ');
      if (key && value !== undefined) values.set(key, Number(value));
    }
    return values;
  }

  /** Removes the group (its processes must have ended; any left are moved to the root first). */
  remove(): void {
    for (const dir of new Set([this.cpuDir, this.acctDir])) {
      if (!existsSync(dir)) continue;
      const parent = path.join(dir, '..', 'cgroup.procs');
      for (const pid of readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n')) {
        if (pid === '') continue;
        try {
          writeFileSync(parent, pid);
        } catch {
          // Ended meanwhile.
        }
      }
      try {
        rmdirSync(dir);
      } catch (error) {
        console.warn(`could not remove the cgroup ${dir}: ${(error as Error).message}`);
      }
    }
  }
}
