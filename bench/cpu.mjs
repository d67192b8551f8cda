// CPU time of the processes a benchmark started (workerd under Miniflare), from /proc: the cost of
// a request on the server, which a shared machine's load disturbs far less than wall-clock rates.
import { readdirSync, readFileSync } from "node:fs";

/** This process's child processes: pid, parent pid and CPU time (user and system) in ms. */
export function children() {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return { pid: Number(d), ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12])) * 10 };
      } catch {
        return null;
      }
    })
    .filter((p) => p && p.ppid === process.pid);
}

/** The CPU time in ms of the children among `pids` (a Set), so far. */
export const cpuOf = (pids) => children().filter((c) => pids.has(c.pid)).reduce((a, c) => a + c.cpuMs, 0);
