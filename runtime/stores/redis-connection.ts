/**
 * What the Redis stores use of a Redis client: commands, and a second connection for pub/sub
 * (a subscribed connection can do nothing else). {@link connectRedis} makes one with the
 * maintained `redis` (node-redis) client, an optional dependency loaded only when called; any
 * node-redis client the application already has fits as well.
 */
export interface RedisCommands {
  /** Sends one Redis command and resolves with its reply. */
  sendCommand(args: readonly string[]): Promise<unknown>;
}

export interface RedisSubscriber {
  /** Calls `listener` with each message published on `channel`. */
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<unknown>;
  /** Stops the messages of `channel`. */
  unsubscribe(channel: string): Promise<unknown>;
}

export interface RedisConnection {
  readonly commands: RedisCommands;
  /** The pub/sub connection, opened on first use. */
  subscriber(): Promise<RedisSubscriber>;
  /** Closes the connection, and the pub/sub one if it was opened. */
  close(): Promise<void>;
}

/** The part of a node-redis client {@link connectRedis} uses (its full types are large and version-bound). */
interface NodeRedisClient extends RedisCommands, RedisSubscriber {
  on(event: "error", listener: (error: unknown) => void): unknown;
  connect(): Promise<unknown>;
  duplicate(): NodeRedisClient;
  destroy(): void;
}

/** Connects to `url` (e.g. redis://127.0.0.1:6379) with node-redis: `npm install redis`. */
export async function connectRedis(url: string): Promise<RedisConnection> {
  let createClient: (options: { url: string }) => NodeRedisClient;
  try {
    ({ createClient } = (await import("redis")) as unknown as { createClient: typeof createClient });
  } catch (error) {
    throw new Error(`the Redis stores need the redis package (npm install redis): ${(error as Error).message}`);
  }
  const open = async (client: NodeRedisClient) => {
    client.on("error", () => {}); // it reconnects on its own; a failed command rejects with the cause
    await client.connect();
    return client;
  };
  const client = await open(createClient({ url }));
  let subscriber: Promise<NodeRedisClient> | undefined;
  return {
    commands: client,
    subscriber: () => (subscriber ??= open(client.duplicate())),
    close: async () => {
      if (subscriber) (await subscriber).destroy();
      client.destroy();
    },
  };
}
