// Two glTF readers that are not slime's, for tests/export/test_gltf_readers.py:
//   node tests/support/gltf_readers.mjs NODE_MODULES validate FILE      the Khronos glTF-Validator's report (JSON)
//   node tests/support/gltf_readers.mjs NODE_MODULES three FILE TICKS...
// "three" loads FILE with three.js's GLTFLoader, as web/view_in_browser.html does, plays its
// animations (once) with an AnimationMixer and prints, for each tick asked, every morphed mesh's weights at
// that tick's time, and the first slime material's physical parameters.
import fs from "fs";
import path from "path";
import { createRequire } from "module";
import { pathToFileURL } from "url";

const [modules, mode, file, ...ticks] = process.argv.slice(2);
const bytes = fs.readFileSync(file);

if (mode === "validate") {
  const validator = createRequire(path.join(modules, "x.js"))("gltf-validator");
  const report = await validator.validateBytes(new Uint8Array(bytes), {
    uri: path.basename(file),
    maxIssues: 100,
    externalResourceFunction: (uri) => Promise.resolve(new Uint8Array(
      fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri))))),
  });
  console.log(JSON.stringify(report.issues));
} else if (mode === "three") {
  const THREE = await import(pathToFileURL(path.join(modules, "three/build/three.module.js")));
  const { GLTFLoader } = await import(pathToFileURL(path.join(modules, "three/examples/jsm/loaders/GLTFLoader.js")));
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new GLTFLoader().parseAsync(data, "");
  const mixer = new THREE.AnimationMixer(gltf.scene);
  for (const clip of gltf.animations) {
    // Once, held at its end: a looping player is back at tick 0 at the last tick's time.
    const action = mixer.clipAction(clip).setLoop(THREE.LoopOnce);
    action.clampWhenFinished = true;
    action.play();
  }
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isMesh && o.morphTargetInfluences) meshes.push(o); });
  const out = {
    animations: gltf.animations.map((clip) => ({ name: clip.name, duration: clip.duration, tracks: clip.tracks.length })),
    meshes: meshes.map((m) => m.name),
    cameras: gltf.cameras.length,
    weights: {},
  };
  for (const tick of ticks) {
    mixer.setTime(Number(tick) / 60);
    out.weights[tick] = meshes.map((m) => Array.from(m.morphTargetInfluences));
  }
  const m = meshes[0].material;
  out.material = { type: m.type, name: m.name, transmission: m.transmission, ior: m.ior, thickness: m.thickness,
                   attenuationDistance: m.attenuationDistance, attenuationColor: m.attenuationColor.toArray(),
                   roughness: m.roughness, color: m.color.toArray() };
  console.log(JSON.stringify(out));
} else {
  console.error(`gltf_readers: unknown mode ${mode}`);
  process.exit(2);
}
