// sharp, loaded on first use: imported with the modules that use it, it cost every process about 80 ms of CPU to
// start (a worker started again after a crash most of all), and most processes touch no image for a long while.
import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
