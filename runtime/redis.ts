/**
 * Many instances, one service: the stores on Redis, through the maintained `redis` (node-redis)
 * client, an optional dependency loaded only by `connectRedis`. A separate entry point
 * (`@mcp-codegen/runtime/redis`), so that a server with one instance never loads any of it.
 */
export { connectRedis, type RedisCommands, type RedisConnection, type RedisSubscriber } from "./stores/redis-connection.js";
export { RedisNonceStore } from "./stores/redis-nonce-store.js";
export type { EventStore, Replay, StoredEvent } from "./stores/event-store.js";
export { RedisEventStore, type RedisEventStoreOptions } from "./stores/redis-event-store.js";
export { RedisSessionStore } from "./stores/redis-session-store.js";
export { RedisEventBus } from "./stores/redis-event-bus.js";
export { RedisTaskStore } from "./stores/redis-task-store.js";
