// Dolos (@dodona/dolos-lib) on the files of one language, with the Dolos
// command line's defaults; prints one line per pair: "<similarity>\t<a>\t<b>".
// Run by `mayan-judge bench --only similar` as:
//   node dolos.mjs <node_modules dir> <language> <file>...
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [modules, language, ...files] = process.argv.slice(2);
const lib = await import(pathToFileURL(join(modules, "@dodona/dolos-lib/dist/index.js")).href);
const dolos = new lib.Dolos({ language });
const report = await dolos.analyzePaths(files);
for (const pair of report.allPairs()) {
  console.log(`${pair.similarity}\t${pair.leftFile.path}\t${pair.rightFile.path}`);
}
