// Where a process runs, precisely enough that a pid means the same process to every process with the same key: the
// kernel's boot id and the pid namespace (Linux; two containers of one machine have different namespaces). Elsewhere
// there is no key, and a worker that is gone is known only by its silence.
import fs from 'node:fs';

export function processHost(): string | undefined {
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot} ${fs.readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return undefined;
  }
}

/** Whether no process has this pid on this host (a pid taken again by another process counts as not gone). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
