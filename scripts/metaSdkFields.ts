// Writes test/fixtures/metaSdkFields.json: the field names of the Graph objects Herald uses, as Meta's
// business SDK lists them (`static get Fields` of src/objects/<object>.js), with the SDK version and commit.
// Run against a checkout of github.com/facebook/facebook-nodejs-business-sdk:
//   npx tsx scripts/metaSdkFields.ts <sdk git dir> [commit]
// Only names are kept; no SDK code is copied.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const OBJECTS: Record<string, string> = {
  Page: 'page',
  Business: 'business',
  PagePost: 'page-post',
  Stories: 'stories',
  ShadowIGMediaBuilder: 'shadow-ig-media-builder',
  IGMedia: 'ig-media',
  ContentPublishingLimitResponse: 'content-publishing-limit-response',
};

const [gitDir, commit = 'HEAD'] = process.argv.slice(2);
if (!gitDir) throw new Error('usage: npx tsx scripts/metaSdkFields.ts <sdk git dir> [commit]');
const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' });
const sha = git('rev-parse', commit).trim();
const version = JSON.parse(git('show', `${sha}:package.json`)).version as string;
const fields = Object.fromEntries(
  Object.entries(OBJECTS).map(([name, file]) => {
    const source = git('show', `${sha}:src/objects/${file}.js`);
    const block = /static get Fields \(\): Object \{\s*return Object\.freeze\(\{([^}]*)\}\)/.exec(source)?.[1] ?? '';
    return [name, [...block.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]!)];
  }),
);
const fixture = {
  source: `facebook/facebook-nodejs-business-sdk ${version}, src/objects/*.js static Fields`,
  commit: sha,
  fields,
};
writeFileSync(new URL('../test/fixtures/metaSdkFields.json', import.meta.url), `${JSON.stringify(fixture, null, 2)}\n`);
