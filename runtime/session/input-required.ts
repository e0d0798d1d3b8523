import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { digest as sha256, nonce, type Sealer } from "../util/sealed.js";
import { MemoryNonceStore, type NonceStore } from "../stores/nonce-store.js";
import type { LoadedRevision } from "./revisions.js";
import { canonicalJson } from "../util/canonical-json.js";

/**
 * Multi-round-trip requests (stateless era). A handler that asks the client for input is
 * replayed: the first run stops at the first question the request carries no answer to, and the
 * server returns an InputRequiredResult listing the questions plus a `requestState`. The client
 * retries the same request with `inputResponses` and that state, and the handler runs again from
 * the top, now finding its answers.
 *
 * `requestState` travels through the client, so it is signed (HMAC-SHA256), bound to the
 * request it belongs to, expires, and is accepted once.
 */
export interface InputRequiredOptions {
  /** How long a requestState stays valid. Default 10 minutes. */
  readonly ttlMs?: number;
  /**
   * Where used requestStates are remembered, so that each is accepted once. Default: this
   * process's memory; instances behind a load balancer share one (RedisNonceStore).
   */
  readonly nonces?: NonceStore;
}

/** What a requestState carries. */
interface RequestState {
  readonly v: 1;
  /** The method and a digest of the params it was issued for. */
  readonly m: string;
  readonly t: string;
  /** Answers gathered in earlier rounds, by question key. */
  readonly a: Record<string, unknown>;
  /** The questions the InputRequiredResult carrying this state asked. */
  readonly q: readonly string[];
  /** Nonce, for replay protection. */
  readonly n: string;
  /** Expiry, ms since the epoch. */
  readonly e: number;
}

export interface InputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

const DEFAULT_TTL_MS = 10 * 60_000;
const NO_ANSWERS: Readonly<Record<string, unknown>> = Object.freeze({});

/** Signs and checks request states for one server; its nonce store remembers which ones were used. */
export class InputRequiredCodec {
  private readonly sealer: Sealer;
  readonly ttlMs: number;
  private readonly nonces: NonceStore;

  /** `sealer`: the server's, keyed by its `secret`. */
  constructor(sealer: Sealer, options: InputRequiredOptions = {}) {
    this.sealer = sealer;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.nonces = options.nonces ?? new MemoryNonceStore();
  }

  seal(state: RequestState): string {
    return this.sealer.seal("requestState", state);
  }

  /** The state, or -32602 saying precisely why not. Single use is checked apart, by {@link claim}. */
  open(token: string, method: string, target: string, now = Date.now()): RequestState {
    const state = this.sealer.open("requestState", token) as RequestState | undefined;
    if (!state) throw invalidState("was not issued by this server or was altered");
    if (state.m !== method || state.t !== target) throw invalidState("belongs to a different request");
    if (state.e <= now) throw invalidState("has expired");
    return state;
  }

  /** Resolves when `state` is used for the first time, by any instance sharing the nonce store; -32602 otherwise. */
  async claim(state: RequestState): Promise<void> {
    if (!(await this.nonces.claim(state.n, state.e))) throw invalidState("was already used");
  }

  nonce(): string {
    return nonce();
  }
}

const invalidState = (why: string) => new RpcError(ErrorCode.InvalidParams, `Invalid params: requestState ${why}`);

/**
 * One run of one handler: the answers it can have, and the questions it still needs. `ask`
 * resolves at once when the answer is there; otherwise it never resolves, and `required`
 * resolves with the InputRequiredResult once the handler has asked everything it asks in the
 * same turn (so `Promise.all` of two questions yields one round trip, not two).
 */
export class InputExchange {
  private readonly answers: Readonly<Record<string, unknown>>;
  /** The digest of the request this run answers; computed only when a requestState is opened or issued. */
  private target: string | undefined;
  private readonly missing = new Map<string, InputRequest>();
  private asked = 0;
  private scheduled = false;
  private resolveRequired!: (result: Record<string, unknown>) => void;
  /** Settles once the request's requestState (if any) is claimed: the handler runs after it, and not at all when it rejects. */
  readonly claimed: Promise<void> | undefined;
  readonly required = new Promise<Record<string, unknown>>((resolve) => (this.resolveRequired = resolve));

  constructor(
    private readonly codec: InputRequiredCodec,
    private readonly module: LoadedRevision,
    private readonly method: string,
    private readonly params: Record<string, unknown>,
  ) {
    const token = params.requestState;
    const responses = params.inputResponses as Record<string, unknown> | undefined;
    if (typeof token !== "string") {
      // No state (SEP-2322 makes it optional): the answers are whatever the client sent. They are
      // its own data either way; each is still checked when the handler asks for it. Most
      // requests carry neither, and then cost nothing here: binding is paid only with a state.
      this.answers = responses ?? NO_ANSWERS;
      return;
    }
    this.target = digest(params);
    const state = codec.open(token, method, this.target);
    this.claimed = codec.claim(state);
    const answers = { ...state.a };
    if (responses) for (const key of state.q) if (Object.prototype.hasOwnProperty.call(responses, key)) answers[key] = responses[key];
    this.answers = answers;
  }

  /** Whether the handler asked anything it had no answer to. */
  get incomplete(): boolean {
    return this.missing.size > 0;
  }

  /** `key` names the question in inputRequests / inputResponses; default input-1, input-2, ... */
  ask(request: InputRequest, key: string = `input-${++this.asked}`): Promise<unknown> {
    if (Object.prototype.hasOwnProperty.call(this.answers, key)) {
      const answer = this.answers[key];
      const expected = this.module.inputRequests.get(request.method)?.results?.[0];
      if (expected && !this.module.validator(expected).is(answer))
        return Promise.reject(new RpcError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] is not a ${expected}`));
      return Promise.resolve(answer);
    }
    this.missing.set(key, request);
    if (!this.scheduled) {
      this.scheduled = true;
      // Let questions asked together (Promise.all) join this round.
      setImmediate(() => this.resolveRequired(this.result()));
    }
    return new Promise(() => {});
  }

  private result(): Record<string, unknown> {
    const state: RequestState = {
      v: 1,
      m: this.method,
      t: (this.target ??= digest(this.params)),
      a: this.answers,
      q: [...this.missing.keys()],
      n: this.codec.nonce(),
      e: Date.now() + this.codec.ttlMs,
    };
    return {
      resultType: "input_required",
      inputRequests: Object.fromEntries(this.missing),
      requestState: this.codec.seal(state),
    };
  }
}

/** The request a state belongs to: its params without the parts that change between rounds. */
function digest(params: Record<string, unknown>): string {
  const { _meta, inputResponses, requestState, ...target } = params;
  return sha256(canonicalJson(target));
}
