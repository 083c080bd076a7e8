// animre's bridge to the official Kaitai Struct compiler (npm kaitai-struct-compiler).
// Reads a JSON request on stdin: {"mains": ["<id>", ...], "specs": {"<id>": "<yaml text>"}, "dirs": ["<ksy dir>"]}
// and writes {"results": {"<id>": {"files": {"<name>.py": "<code>"}} | {"error": "<compiler message>"}}} on stdout.
// Debug mode is on unless the request says "debug": false (every field records _debug start/end and parsing
// is an explicit _read()); the tests compile a spec the ordinary way too, to compare outcomes.
"use strict";
const fs = require("fs");
const path = require("path");

let ksc, yaml;
try {
  ksc = require("kaitai-struct-compiler");
  yaml = require("js-yaml");
} catch (e) {
  process.stdout.write(JSON.stringify({ toolchain: "kaitai-struct-compiler / js-yaml not installed: " + e.message }));
  process.exit(0);
}

function errText(e) {
  if (e === null || e === undefined) return String(e);
  if (typeof e === "string") return e;
  const parts = [];
  if (e.getMessage) { try { parts.push(String(e.getMessage())); } catch (_) { /* ignore */ } }
  if (e.message && !parts.includes(e.message)) parts.push(String(e.message));
  const s = String(e);
  if (!parts.length || (s && !parts.some((p) => s.includes(p)))) parts.push(s);
  return parts.join(": ");
}

// Serves one request per line when started with --serve (animre keeps it running between compiles: loading
// the compiler is most of a small compile's time), or the single request on stdin otherwise.
function handle(req) {
  const load = (name, text) => {
    try {
      return yaml.load(text, { filename: name + ".ksy" });
    } catch (e) {
      throw new Error(name + ".ksy: YAML error: " + e.message);
    }
  };
  const importer = {
    importYaml: (name, mode) => {
      const base = path.basename(name);
      if (req.specs[base] !== undefined) return Promise.resolve(load(base, req.specs[base]));
      for (const dir of req.dirs || []) {
        const p = path.join(dir, name.endsWith(".ksy") ? name : name + ".ksy");
        if (fs.existsSync(p)) return Promise.resolve(load(base, fs.readFileSync(p, "utf8")));
      }
      return Promise.reject(new Error("imported spec not found: " + name));
    },
  };
  const one = (main) => {
    let spec;
    try {
      spec = load(main, req.specs[main]);
    } catch (e) {
      return Promise.resolve({ error: errText(e) });
    }
    return ksc
      .compile("python", spec, importer, req.debug !== false)
      .then((files) => ({ files: files }))
      .catch((e) => ({ error: errText(e) }));
  };
  return Promise.all(req.mains.map(one)).then((res) => {
    const results = {};
    req.mains.forEach((m, i) => (results[m] = res[i]));
    return JSON.stringify({ results: results });
  });
}

if (process.argv.includes("--serve")) {
  const rl = require("readline").createInterface({ input: process.stdin });
  let queue = Promise.resolve();
  rl.on("line", (line) => {
    if (!line.trim()) return;
    queue = queue
      .then(() => handle(JSON.parse(line)))
      .catch((e) => JSON.stringify({ toolchain: "the compiler bridge failed: " + errText(e) }))
      .then((out) => process.stdout.write(out + "\n"));
  });
  rl.on("close", () => queue.then(() => process.exit(0)));
} else {
  let input = "";
  process.stdin.on("data", (d) => (input += d));
  process.stdin.on("end", () => handle(JSON.parse(input)).then((out) => process.stdout.write(out)));
}
