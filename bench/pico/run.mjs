// Runs Python code under MicroPython compiled to WebAssembly, for bench/controller_micropython.py.
//
// stdin: JSON {"module": path of micropython.mjs, "heap": bytes, "files": {name: text}, "code": text}.
// The files go to /pico (first on sys.path, like the Pico's flash); then the code runs. stdout: one
// JSON object a line: {"t": ms since start, "out": a line the code printed}, and last {"end": true,
// "error": the Python exception's text or null}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const job = JSON.parse(readFileSync(0, "utf8"));
const { loadMicroPython } = await import(pathToFileURL(job.module).href);
const start = performance.now();
const say = (object) => process.stdout.write(JSON.stringify(object) + "\n");
const mp = await loadMicroPython({
  heapsize: job.heap,
  stdout: (line) => say({ t: performance.now() - start, out: line }),
  stderr: (line) => say({ t: performance.now() - start, out: line }),
});
mp.FS.mkdir("/pico");
for (const [name, text] of Object.entries(job.files)) {
  mp.FS.writeFile("/pico/" + name, text);
}
let error = null;
try {
  mp.runPython("import sys\nsys.path.insert(0, '/pico')\n" + job.code);
} catch (thrown) {
  if (thrown.name !== "PythonError") throw thrown;
  error = thrown.message;
}
say({ end: true, error });
