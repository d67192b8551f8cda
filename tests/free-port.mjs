import { createServer } from "node:net";

// Ports for the servers the tests start come from below Linux's ephemeral range (32768-60999).
// A port the kernel hands out (`listen(0)`) is free only until the kernel hands it out again: to
// any socket bound to port 0 or connecting out, such as wrangler's own internal servers and
// loopback connections while it starts, before it binds the port it was given ("Address already
// in use"). Below the range the kernel hands out nothing. A server that still takes the port in
// between makes `startWorker` (tests/worker/harness.mjs) draw new ports and start again.
const PORTS = { low: 20_000, high: 32_000 };

/** A port on 127.0.0.1 that is free now, drawn at random from below the ephemeral range. */
export async function freePort() {
  for (let tries = 0; ; tries++) {
    const port = PORTS.low + Math.floor(Math.random() * (PORTS.high - PORTS.low));
    const free = await new Promise((resolve, reject) => {
      const server = createServer();
      server.once("error", (err) => (err.code === "EADDRINUSE" && tries < 100 ? resolve(false) : reject(err)));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
