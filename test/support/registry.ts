/**
 * A tiny npm registry on 127.0.0.1 for the tests: it serves packed tarballs under their names and
 * versions, so that a project depends on them by version exactly as a user's does, and forwards
 * every other request, untouched, to the registry npm is configured with.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/<digest of the tarballs>/`: give it to npm as `--registry`. */
  readonly url: string;
  /** Names this registry answers itself; everything else was forwarded. */
  readonly served: readonly string[];
  close(): Promise<void>;
}

export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly exports?: Record<string, string | Record<string, string>>;
}

/** package/package.json inside a tarball made by `npm pack`. */
export function tarballManifest(tarball: string): PackageManifest {
  return JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as PackageManifest;
}

export function upstreamRegistry(): string {
  return execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
}

export async function startRegistry(tarballs: readonly string[], upstream = upstreamRegistry()): Promise<LocalRegistry> {
  const packages = tarballs.map((file) => {
    const bytes = readFileSync(file);
    return {
      file,
      bytes,
      manifest: tarballManifest(file),
      integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
      shasum: createHash("sha1").update(bytes).digest("hex"),
    };
  });
  // The URL's path names what is served: npm's cache keeps a packument by its URL, and with
  // --prefer-offline a later run whose registry got the same port would install the earlier run's
  // tarball of the same version (it did: the upgrade test ran an older build's CLI).
  const prefix = `/${createHash("sha256").update(packages.map((p) => p.integrity).join(" ")).digest("hex").slice(0, 16)}/`;
  let url = "";
  const packument = (pkg: (typeof packages)[number]) => ({
    name: pkg.manifest.name,
    "dist-tags": { latest: pkg.manifest.version },
    versions: {
      [pkg.manifest.version]: {
        ...pkg.manifest,
        _id: `${pkg.manifest.name}@${pkg.manifest.version}`,
        dist: { tarball: `${url}-/tarballs/${basename(pkg.file)}`, integrity: pkg.integrity, shasum: pkg.shasum },
      },
    },
  });

  const server = createServer((req, res) => {
    const below = (req.url ?? "/").startsWith(prefix) ? (req.url ?? "/").slice(prefix.length - 1) : (req.url ?? "/");
    const path = decodeURIComponent(new URL(below, "http://x").pathname).slice(1);
    const byName = packages.find((p) => p.manifest.name === path);
    if (byName) return send(res, 200, "application/json", JSON.stringify(packument(byName)));
    const byFile = packages.find((p) => path === `-/tarballs/${basename(p.file)}`);
    if (byFile) return send(res, 200, "application/octet-stream", byFile.bytes);
    forward(req, below, res, upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`;
  return {
    url,
    served: packages.map((p) => p.manifest.name),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) }).end(body);
}

/** The request as npm sent it, to the same path (`path`, below the registry's own) below `upstream`; the answer streamed back as is. */
function forward(req: IncomingMessage, path: string, res: ServerResponse, upstream: string): void {
  const target = new URL(path.replace(/^\//, ""), upstream.endsWith("/") ? upstream : `${upstream}/`);
  const { host: _host, connection: _connection, ...headers } = req.headers;
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  const out = request(target, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.setTimeout(60_000, () => out.destroy(new Error(`no answer from ${target.href} in 60 s`)));
  out.on("error", (error) => {
    if (res.headersSent) res.destroy(error);
    else send(res, 502, "text/plain", `forwarding to ${target.href} failed: ${error.message}`);
  });
  req.pipe(out);
}
