import { spawn } from 'node:child_process';
import { serveStatic } from './static-server.ts';
const server = await serveStatic(process.argv[2]!);
const port = 4444;
const driver = spawn('xvfb-run', ['-a', 'WebKitWebDriver', `--port=${port}`], { stdio: 'inherit' });
await new Promise((r) => setTimeout(r, 2500));
const wd = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await r.json()) as { value: any };
};
const args = (process.argv[3] ?? '--automation').split(' ');
try {
  const s = await wd('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', args } } } });
  console.log('session', JSON.stringify(s.value).slice(0, 300));
  const id = s.value.sessionId;
  await wd('POST', `/session/${id}/url`, { url: `${server.url}/` });
  for (let i = 0; i < 40; i++) {
    const v = await wd('POST', `/session/${id}/execute/sync`, { script: `try { const m = window.memory; if (!m) return 'no memory'; return JSON.stringify({state: m.state, info: m.state === 'ready' ? {backend: m.info.backend, reason: m.info.backendReason, device: m.info.device} : null}); } catch (e) { return 'err ' + e; }`, args: [] });
    console.log(i, v.value);
    if (String(v.value).includes('"ready"') || String(v.value).includes('failed')) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const v2 = await wd('POST', `/session/${id}/execute/async`, { script: `const done = arguments[0]; (async () => { const id = await window.memory.remember({text: 'webkit can remember the lighthouse'}); const r = await window.memory.recall('lighthouse'); const s = await window.memory.stats(); let opfs = 'n/a'; try { const d = await navigator.storage.getDirectory(); opfs = 'ok ' + d.name; } catch (e) { opfs = String(e); } done(JSON.stringify({id, n: r.length, backend: s.backend, reason: s.backendReason, opfsPage: opfs})); })().catch(e => done('error ' + e));`, args: [] });
  console.log('api', v2.value);
  await wd('DELETE', `/session/${id}`);
} finally {
  driver.kill();
  await server.close();
}
