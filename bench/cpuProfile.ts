// Reads the .cpuprofile files that `node --cpu-prof` writes and names the frames that took the most CPU time
// themselves (self time), summed over every call site of the same function.
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Node flags for a process whose profile lands in `dir` when it exits (NODE_OPTIONS may not carry them). */
export function cpuProfileFlags(dir: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/** The `count` frames with the most self time over every profile in `dir`, as "ms  function  file:line". */
export function topFrames(dir: string, count = 5): string[] {
  const selfMs = new Map<string, number>();
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile;
    const frameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    profile.samples.forEach((id, i) => {
      const frame = frameOf.get(id)!;
      if (frame.functionName === '(idle)') return;
      const file = frame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '');
      const where = frame.url ? `  ${file}:${frame.lineNumber + 1}` : '';
      const name = `${frame.functionName || '(anonymous)'}${where}`;
      selfMs.set(name, (selfMs.get(name) ?? 0) + profile.timeDeltas[i]! / 1000);
    });
  }
  return [...selfMs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${name}`);
}
