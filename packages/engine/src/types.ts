import type { AnamnesisError } from '@anamnesis/errors';
import type { Contribution, LegHit, RecencyMode, ScoringProfile } from '@anamnesis/ranking';

/** JSON-compatible metadata values (metadata equality filters compare these). */
export type MetaValue = string | number | boolean | null;

/** A memory as stored and returned by `get`. */
export interface Memory {
  /** Stable, time-ordered id. */
  id: string;
  /** The text, exactly as given (a leading byte order mark dropped). */
  text: string;
  /** Free-form kind, e.g. `'note'`, `'turn'`, `'page'`. Default `'note'`. */
  kind: string;
  /** Session (conversation, document, tab…) the memory belongs to, or `null`. */
  session: string | null;
  /** Tags, as given. */
  tags: string[];
  /** The app's metadata (JSON-compatible values; `meta.speaker` names who said it). */
  meta: Record<string, MetaValue>;
  /** Importance in [0, 1]. */
  importance: number;
  /** Creation time, milliseconds since the epoch. */
  createdAt: number;
  /** Last update time, milliseconds since the epoch. */
  updatedAt: number;
  /** How often the memory was returned by `recall`. */
  accessCount: number;
  /** Stored quality score in [0, 1] (Memsense's memory_score). */
  memoryScore: number;
  /**
   * Pinned (`Engine.pin`): recall gives it no recency decay (it ranks as if made now) and makes it
   * a candidate whenever it shares a word with the query or its meaning is close enough (see
   * `WEAK_MATCH`, 0.3), however many newer memories outrank it. Default false.
   */
  pinned: boolean;
}

/** A link to another memory, given with `remember` or `link`. */
export interface LinkInput {
  /** Target memory id. */
  to: string;
  /** Link kind. Default `'related'`. */
  kind?: string;
  /** Link weight in (0, 2^53 − 1]. Default 1. */
  weight?: number;
}

/** Input of `remember` and of each item of `rememberMany`. */
export interface RememberInput {
  /** The text; non-empty, at most `maxTextLength` characters. */
  text: string;
  /** Importance in [0, 1]. Default 0.5. */
  importance?: number;
  /** Tags (non-empty strings). Default none. */
  tags?: string[];
  /** Metadata; keys must be identifiers (`[A-Za-z_][A-Za-z0-9_]*`). Default `{}`. */
  meta?: Record<string, MetaValue>;
  /** Kind. Default `'note'`. */
  kind?: string;
  /** Session. Default `null`. */
  session?: string | null;
  /**
   * Creation time: ms since the epoch, a Date, or an ISO 8601 string: a date and time with `Z` or
   * an offset (`'2026-06-12T09:30:00Z'`, `'2026-06-12T11:30:00.250+02:00'`), or a date alone
   * (`'2026-06-12'`, midnight UTC). A time without a zone, or a date written another way
   * (`'12/06/2026'`), is `INVALID_INPUT`: it would mean another instant on another machine. Within
   * the Date range (±8.64e15 ms). Stored (and returned) as ms. Default now.
   */
  createdAt?: number | Date | string;
  /** Caller-chosen id; must be unique. Default: a generated time-ordered id. */
  id?: string;
  /** Stored quality score in [0, 1]. Default 0. */
  memoryScore?: number;
  /** Links from this memory to existing ones (or to others in the same batch). */
  links?: LinkInput[];
  /** Store a duplicate even when the same text exists in the same session. Default false. */
  allowDuplicate?: boolean;
}

/** Fields `update` may change. Changing `text` re-embeds the memory. */
export type UpdateInput = Partial<
  Pick<RememberInput, 'text' | 'importance' | 'tags' | 'meta' | 'kind' | 'session' | 'memoryScore'>
>;

/** Filters applied inside every leg of `recall` and by `forget`. All given conditions must hold. */
export interface MemoryFilter {
  /** The memory carries every one of these tags. */
  tags?: string[];
  /** Kind equals this (or one of these). */
  kind?: string | string[];
  /** Session equals this (or one of these). */
  session?: string | string[];
  /** Created at or after this time (ms since the epoch or Date). */
  after?: number | Date;
  /** Created strictly before this time (ms since the epoch or Date). */
  before?: number | Date;
  /** Metadata equality; keys must be identifiers. */
  meta?: Record<string, MetaValue>;
  /** Only these ids. */
  ids?: string[];
  /** Only pinned memories (`true`) or only memories not pinned (`false`); see `Engine.pin`. */
  pinned?: boolean;
}

/** A caller-supplied ranked list fused with the legs. */
export interface ExtraList {
  /** Leg label (an identifier). */
  label: string;
  /** Items best first; unknown ids are ignored. */
  items: {
    /** A memory's id. */
    id: string;
    /** The list's own score for it (only its rank is fused). */
    score: number;
  }[];
  /** RRF weight of the list. Default: the profile's default weight. */
  weight?: number;
}

/** Options of `recall`. */
export interface RecallOptions {
  /** Scoring profile: a name (`'default'`, `'mnemosyne'`…) or a custom profile object. Default `'default'`. */
  profile?: string | ScoringProfile;
  /** Number of results. Default 10 (ignored when `tokenBudget` is set). */
  topK?: number;
  /**
   * Fill this many estimated tokens (about four characters each) greedily by value density (score
   * per token) instead of taking `topK`. Default: none (`topK` applies).
   */
  tokenBudget?: number;
  /**
   * With `tokenBudget`: a memory that does not fit what is left of the budget is shrunk by seed
   * 002's four-stage compression (structure kept, boilerplate collapsed, low-IDF and near-duplicate
   * lines removed) and taken when the shrunk text fits; it comes back in the result's
   * `compressed`. Default false. `INVALID_INPUT` without `tokenBudget`.
   */
  compress?: boolean;
  /** Filters applied inside every leg. */
  filter?: MemoryFilter;
  /** Drop results whose cosine similarity is below this. Default: the profile's floor. */
  minSimilarity?: number;
  /** Graph leg: start from these memory ids; default seeds are the top lexical and vector hits. */
  graph?: {
    /** Memory ids to start from. Default: the top lexical and vector hits. */
    seeds?: string[];
    /** Hops to follow, an integer in [1, 5]. Default 2. */
    maxHops?: number;
    /** Follow links in both directions. Default true. */
    undirected?: boolean;
  };
  /** Caller-supplied ranked lists fused with the legs. */
  extraLists?: ExtraList[];
  /** `'session'`: one result per session, scored session-first with bounded turn support. */
  groupBy?: 'session';
  /** Add up to n adjacent memories of the same session after each result. Default 0. */
  neighbors?: number;
  /**
   * MMR diversity: `true` uses λ 0.5 (or the profile's λ), `false` turns it off, an object sets λ
   * and the duplicate threshold. Default: the profile's setting.
   */
  mmr?:
    | boolean
    | {
        /** Relevance against diversity, in [0, 1] (1: relevance only). Default: the profile's λ, else 0.5. */
        lambda?: number;
        /** Similarity at or above which a candidate is a duplicate of one already taken and dropped. Default: none. */
        duplicateThreshold?: number;
      };
  /** Seed 004's recency mode for profiles with a recency factor. Default `'neutral'`. */
  recencyMode?: RecencyMode;
  /** Attach an `explain` object to each result. Default false. */
  explain?: boolean;
  /** Skip the result cache for this call. Default false. */
  noCache?: boolean;
  /**
   * The query is being typed (search as you type): its last word, when nothing follows it, is
   * also a prefix, so the store's words it begins are searched too ("panc" finds "pancake").
   * Default false.
   */
  typing?: boolean;
  /**
   * The match strength (`RecallResult.match`, in [0, 1]) the best result needs for recall to
   * answer at all: below it the query asks about nothing the store holds ("mortgage refinancing
   * options" over notes on a kitten, the dentist and groceries) and recall returns no result.
   * When the best is strong enough, every result is returned, those below `WEAK_MATCH` (0.3)
   * marked `weak`. 0 returns whatever was found; a search box that would rather say "nothing
   * matches" than show weak results sets `WEAK_MATCH` (or checks `weak`). Default 0.1 (on the dev
   * corpora no question loses its answer to it). Not applied when the call gives `graph.seeds` or
   * `extraLists`: what the caller named to find is evidence the query cannot weigh.
   */
  minMatch?: number;
}

/** A memory in a chain of supersessions (`Engine.history`), with the one that superseded it. */
export interface HistoryEntry extends Memory {
  /** The newer memory that superseded this one: its id, when it was made, whether the app confirmed it. */
  supersededBy?: {
    /** The newer memory's id. */
    id: string;
    /** When it was made, ms since the epoch. */
    at: number;
    /** Whether the app set or confirmed it (`supersede`) rather than the engine finding it. */
    confirmed: boolean;
  };
}

/** The explanation of one result: each leg's rank and raw score, each component's share. */
export interface Explain {
  /** The name of the profile that ranked it. */
  profile: string;
  /** Legs that found the memory. */
  legs: LegHit[];
  /** Contributions; their left-to-right sum is the result's `score`, exactly. */
  contributions: Contribution[];
  /** Session-first fields, when `groupBy: 'session'`. */
  session?: {
    /** The session's representative's own score. */
    sessionScore: number;
    /** Seed 001's bounded turn support: `min(0.12, 0.6 · best other turn's RRF score)`. */
    turnSupport: number;
    /** How many other memories of the session were found. */
    supportingTurnCount: number;
  };
  /** Rank chosen by MMR, when it ran. */
  mmrRank?: number;
  /** Id of the result this memory was added next to (neighbor expansion). */
  neighborOf?: string;
  /** Why the result is `partial` (found without the embedding model), when it is. */
  partial?: string;
  /** What compression removed, when only the compressed text fitted the token budget. */
  compression?: Omit<Compression, 'text'>;
  /** The parts of the match strength (`RecallResult.match` is the greater, the time weighed in). */
  match?: {
    /** The query's words (each weighted by its rarity in the store) the memory holds, in [0, 1]. */
    lexical: number;
    /** How far its meaning stands above the store's usual for the query, in [0, 1]. */
    meaning: number;
    /**
     * Whether it was made in the time the query names ("two days ago"), when the query names
     * one: the time counts as one more of the query's words, held by a memory made then as far
     * as it matches the rest of the query.
     */
    time?: boolean;
  };
  /** What the query was read as: one entry per thing it asks for. */
  query?: QueryReading[];
  /**
   * A newer memory supersedes this one (it states a new value for the same fact: "We moved to
   * Lisbon" after "I live in Porto"), so it ranks below it: the newer memory's id, when it was
   * made (ms since the epoch), and whether the app set or confirmed it (`supersede`) rather than
   * the engine finding it.
   */
  supersededBy?: HistoryEntry['supersededBy'];
  /**
   * This memory took the place of an older one it supersedes, which the query found (its id): it
   * ranks just above it, and its match is the older's where that is greater.
   */
  replaces?: string;
  /**
   * The memory is pinned (`Engine.pin`): it had no recency decay (its age counted as 0), and when
   * it qualified (a word of the query, or its meaning at `WEAK_MATCH`, 0.3, or above) it was a
   * candidate of the `pinned` leg (in `legs`) whatever the other legs found.
   */
  pinned?: true;
}

/** One thing a query asks for, as recall read it (`Explain.query`). */
export interface QueryReading {
  /**
   * A word, a quoted phrase, a code ("4521-0092"), an address or domain, an emoji, a negated
   * word ("without cheese": held by a memory that says the word near a negation of its own), or a
   * time ("two days ago", "last summer": searched as a window of creation times, not as words).
   */
  kind: 'word' | 'phrase' | 'code' | 'site' | 'emoji' | 'negation' | 'time';
  /** As typed. */
  text: string;
  /** The words searched, lower case (an emoji's name, an address's host and path words). */
  words: string[];
  /** The word was still being typed (`typing`): the store's words it begins were searched too. */
  prefix?: true;
  /** Those words, most common first. */
  completions?: string[];
  /** No memory has the word: it was read as this word of the store (a typo corrected). */
  correction?: string;
  /** A time's window of creation times. */
  window?: {
    /** Its first instant, ms since the epoch. */
    start: number;
    /** The instant after its last, ms since the epoch. */
    end: number;
  };
}

/** A memory's text as shrunk to fit a token budget (`recall` with `compress: true`). */
export interface Compression {
  /** The compressed text (the memory's own `text` is unchanged). */
  text: string;
  /** Estimated tokens of the compressed text: what it took of the budget. */
  tokens: number;
  /** Estimated tokens of the memory's whole text. */
  originalTokens: number;
  /** `tokens / originalTokens`. */
  ratio: number;
  /** Lines removed by the boilerplate, importance (IDF) and density stages. */
  removedLines: {
    /** By the boilerplate stage (imports, assignments, logging collapsed). */
    boilerplate: number;
    /** By the importance stage (low-IDF lines). */
    importance: number;
    /** By the density stage (near-duplicate lines). */
    density: number;
  };
}

/** One result of `recall`. */
export interface RecallResult extends Memory {
  /** The fused score the results are ranked by. */
  score: number;
  /** Raw cosine similarity between query and memory (0 in a `partial` result). */
  similarity: number;
  /**
   * How well the memory answers the query, in [0, 1], comparable across queries and stores: the
   * greater of the share of the query's words it holds (rare words weighing more) and how far its
   * meaning stands above what the best of the store's memories reaches by chance. Where the query
   * names a time ("two days ago"), the time counts as one more of its words: a memory made then
   * holds it as far as it matches the rest, and one made at another time is weak. An app can
   * threshold it (recall itself answers nothing when the best is below `minMatch`).
   */
  match: number;
  /** Set when `match` is below `WEAK_MATCH` (0.3): a weak match, not an answer one can rely on. */
  weak?: true;
  /**
   * In a long memory (over 800 characters), the passage that matched: the sentence or two that
   * hold most of the query's words, to show instead of the memory's first words. A long memory's
   * lexical match is this passage's, not the whole text's (a diary holds most words somewhere).
   */
  passage?: {
    /** The passage's text (trimmed). */
    text: string;
    /** Where it begins in `text` (UTF-16 offset). */
    start: number;
    /** Where it ends (UTF-16 offset, excluded). */
    end: number;
  };
  /** Why it ranks where it does, with `explain: true`. */
  explain?: Explain;
  /** Set when only a compressed form of the text fitted the token budget (see `compress`). */
  compressed?: Compression;
  /**
   * True when the result was found without the embedding model (it was still loading or failed):
   * from the lexical legs alone; `explain.partial` says why.
   */
  partial?: true;
}

/**
 * What a committed change did: `'remember'` (`remember`, `rememberMany`), `'update'` (`update`,
 * `pin`), `'forget'`,
 * `'link'`, `'unlink'`, `'usage'` (`markUsed`, `setDeviceUsage`), `'import'`, `'model'` (the
 * embedding model became ready: recalls now search by meaning too), and `'elsewhere'`: another
 * process committed to the store (a file store shared by processes), heard at the engine's next
 * call, or within a second by an engine with listeners (`subscribe`); its `ids` are the memories
 * whose text or vector it wrote that still exist, and what else it changed (tags, importance,
 * links, usage, memories it deleted) is not named.
 */
export type ChangeKind =
  'remember' | 'update' | 'forget' | 'link' | 'unlink' | 'usage' | 'import' | 'model' | 'elsewhere';

/** One committed change of the store, as change listeners hear it (`EngineOptions.onChange`). */
export interface StoreChange {
  /** What the change did. */
  kind: ChangeKind;
  /**
   * The memories it changed: added (a duplicate text answered with an existing id is not a
   * change), updated, deleted, linked or unlinked (both ends), or marked used; empty for `'model'`.
   */
  ids: string[];
  /**
   * The engine's generation after the change: it counts the changes since this engine opened the
   * store (a new engine, or in a browser a new owner tab, starts again from its own count).
   */
  generation: number;
}

/**
 * A stage of a computed recall, in pipeline order:
 *
 * - `query`: reading the query (slots, completions, typo corrections, the filter's rows) and
 *   weighing its words
 * - `embed`: the query's vector (the model)
 * - `fts`, `expansion`, `vector`, `date`, `graph`: the candidate legs (`vector` includes the
 *   sample of cosines that scales meaning strength; `graph` the caller's own lists and the pinned memories' leg)
 * - `rows`: the candidates' rows and cosines
 * - `fusion`: prior legs, fusion, priors, dedup
 * - `signals`: context, speaker, sessions
 * - `mmr`: diversity and selection
 * - `answer`: match strength and the results (whole rows, explanations, neighbours)
 */
export type RecallStage =
  | 'query'
  | 'embed'
  | 'fts'
  | 'expansion'
  | 'vector'
  | 'date'
  | 'graph'
  | 'rows'
  | 'fusion'
  | 'signals'
  | 'mmr'
  | 'answer';

/** Time spent in each {@link RecallStage}, summed over computed recalls since open. */
export interface RecallStageTimes {
  /** Recalls computed (answers from the result cache are not). */
  recalls: number;
  /** Milliseconds per stage, summed over those recalls. */
  ms: Record<RecallStage, number>;
}

/** What `stats` reports. */
export interface EngineStats {
  /** Memories stored. */
  memories: number;
  /** Links between memories. */
  links: number;
  /**
   * Usage events recorded (`retrieved` by recall, `selected` / `used` / `discarded` by
   * `markUsed`): those of the last week, kept as events, and the older ones, kept folded into a
   * count and a decayed sum per memory and kind.
   */
  usageEvents: number;
  /**
   * The `retrieved` events of recalls not in {@link usageEvents}: they are queued and saved behind
   * the calls (in the next quiet second, at the next call other than a recall, at close). Where
   * another process holds the write lock of a file store, they wait, queued, and are saved once
   * it lets go; they are dropped only past 100,000 queued or when a save fails otherwise (a
   * read-only store, a full disk), and counted here.
   */
  usageQueue: {
    /** Events queued, not saved yet (one per memory a recall returned). */
    pending: number;
    /** Events dropped unsaved since open. */
    dropped: number;
  };
  /**
   * A file store only: the syncs of its write-ahead log made so far to acknowledge writes (group
   * commit: the writes that came together, of this process, share one).
   */
  diskSyncs?: number;
  /** Database size in bytes. */
  bytes: number;
  /** Where the store lives: OPFS (browser), memory, or a file (Node). */
  backend: 'opfs' | 'memory' | 'file';
  /** Why the backend is `memory` when OPFS was asked for, if it was. */
  backendReason?: string;
  /** Whether the store's pages are encrypted at rest (`EngineOptions.encryption`). */
  encrypted: boolean;
  /**
   * The model: its id and dimensions (`''` and 0 while a promised embedder loads), where it runs
   * (`'loading'` meanwhile) and its state (see `Engine.modelState`).
   */
  model: {
    /** The model's id (`'tfidf'` for the TF-IDF backend). */
    id: string;
    /** Vector dimensions. */
    dims: number;
    /** Where it runs: `'wasm'`, `'webgpu'`, `'cpu'` (Node), `'none'` (TF-IDF), `'loading'` meanwhile. */
    device: string;
    /** Loading, ready, or failed (recall then answers from the lexical legs). */
    state: 'loading' | 'ready' | 'failed';
  };
  /** Texts truncated to the model's maximum length since open. */
  truncated: number;
  /** The recall result cache since open. */
  cache: {
    /** Recalls answered from the cache. */
    hits: number;
    /** Recalls computed. */
    misses: number;
    /** Entries held now. */
    size: number;
  };
  /**
   * Where computed recalls spent their time since open, per stage (a benchmark's breakdown:
   * divide by `recalls`, or take the difference of two reads).
   */
  recallStages: RecallStageTimes;
  /** Incremented by every write. */
  generation: number;
  /** Schema version of the store. */
  schemaVersion: number;
  /**
   * The stored vectors' snapshot parts (written behind the writes once the engine is quiet; the
   * next open reads them instead of one row per memory): how many, and how many vectors they hold.
   */
  vectorParts: {
    /** Parts stored. */
    parts: number;
    /** Vectors they hold. */
    vectors: number;
  };
  /**
   * The lexical indexes' merge into one segment each, behind the writes once the engine is quiet
   * (FTS5 keeps an index written over time in several segments, and each term a recall looks up
   * is looked up in each): the changes written since the last merge finished, and whether the
   * next is due (at least 2,000 changes, and half as many as before it; a memory written is two).
   */
  lexicalMerge: {
    /** Changes written since the last merge finished (all of them before the first). */
    changesSince: number;
    /** Whether a merge is due: it runs once no call has come for two seconds. */
    due: boolean;
  };
  /**
   * How forgotten text leaves the store's file (docs/security.md): every write runs with
   * `PRAGMA secure_delete` (deleted content and freed pages overwritten with zeros); where the
   * SQLite build has the fix for FTS5's secure-delete heap overflow (3.54.0 and later: the
   * browser's SQLite-WASM) a deleted memory's words also leave the lexical indexes at once; on an
   * older build (the Node file store's native SQLite, the encrypted stores') the indexes are
   * rewritten once text was removed, when the engine is quiet and at close, and the file store's
   * WAL is then checkpointed and truncated.
   */
  forgetting: {
    /** The SQLite the store runs on (`sqlite_version()`). */
    sqliteVersion: string;
    /** FTS5's `secure-delete` is on: a deleted memory's words leave the index at once. */
    lexicalSecureDelete: boolean;
    /** Text was removed that the lexical indexes or the WAL may still hold: a purge is due. */
    purgeDue: boolean;
  };
  /**
   * Memory the engine holds, in bytes: `sqliteWasm`, SQLite-WASM's whole WebAssembly memory (its
   * page cache, up to `PRAGMA cache_size`, included; a WebAssembly memory never shrinks);
   * `vectors`, the in-memory vector index (float32 matrix, its int8 copy from 4,096 memories on,
   * and row ids; absent for TF-IDF). The model's runtime (ONNX Runtime) is not included.
   */
  memory: {
    /** SQLite-WASM's WebAssembly memory, in bytes. */
    sqliteWasm: number;
    /** The in-memory vector index, in bytes (absent for TF-IDF). */
    vectors?: number;
  };
}

/** What a status line shows of a sync. */
export interface SyncStatus {
  /** This device's id in the room. */
  device: string;
  /** Connected to the server. */
  connected: boolean;
  /** Connected, and the server's state and this device's have been exchanged. */
  synced: boolean;
  /** Records this device wrote that have not reached a server yet. */
  pending: number;
  /** When this device last finished exchanging with the server, ms since the epoch. */
  lastSyncedAt: number | null;
  /** The last error (`WRONG_PASSPHRASE`, `SYNC_TAMPERED`…), until the next successful exchange. */
  error: AnamnesisError | null;
  /**
   * A line a person should read about the room, or null: the server held nothing for this code
   * at the join (`'No other device has used this code yet…'`: a code mistyped on this device or
   * the other, or the first device), or the server had lost the records this device expected.
   * Cleared when another device's record arrives.
   */
  explain: string | null;
  /**
   * Room entries this device put back in this run (anti-entropy), by why: `replayed` (an older
   * record written over a newer one), `deleted`, `tampered` (an entry that does not authenticate).
   */
  repaired: Record<'replayed' | 'deleted' | 'tampered', number>;
  /** Memories whose text was edited on two devices at once, waiting for a person to choose (`conflicts()`). */
  conflicts: number;
}

/**
 * A memory whose text two devices edited at once (neither edit made over the other). The later
 * edit is its text meanwhile; every other part merged on its own (a tag added on one device and
 * the text edited on the other both stay).
 */
export interface SyncConflict {
  /** The memory's id. */
  id: string;
  /** Its text now: the later of the concurrent edits. */
  text: string;
  /** The concurrent edits that lost, oldest first. */
  others: SyncConflictVersion[];
}

/** One text of a {@link SyncConflict} that is not the memory's text now. */
export interface SyncConflictVersion {
  /** The text of that edit. */
  text: string;
  /** When it was made, ms since the epoch (the editing device's clock). */
  at: number;
}

/** A memory in the sync's trash: forgotten on some device, restorable from any until purged. */
export interface TrashedMemory {
  /** The memory's id (restored under it). */
  id: string;
  /** Its text when it was forgotten. */
  text: string;
  /** Its tags when it was forgotten. */
  tags: string[];
  /** When it was forgotten, ms since the epoch. */
  forgottenAt: number;
}

/** A device of a sync room, as the devices list it (`StoreSync.devices()`). */
export interface SyncDevice {
  /** The device's id in the room. */
  id: string;
  /** Its name ("Firefox on Linux", a host name, or what the person called it). */
  name: string;
  /** When it was last online, ms since the epoch (its own clock; written every ten minutes). */
  lastSeen: number;
  /** This device. */
  self: boolean;
}

/** A running sync of one store. */
export interface StoreSync {
  /** The status now. */
  status(): SyncStatus;
  /** Calls `listener` on every change of the status; returns the function that removes it. */
  onStatus(listener: (status: SyncStatus) => void): () => void;
  /**
   * Calls `listener` after changes from other devices were applied to the store here, with the
   * ids they added, changed or forgot (to refresh a view); returns the function that removes it.
   */
  onApplied(listener: (ids: string[]) => void): () => void;
  /** Goes on line (after `disconnect`, or with `connect: false`). */
  connect(): void;
  /** Goes off line; changes wait until `connect`. */
  disconnect(): void;
  /** Resolves once every change heard or received so far is published and applied. */
  settled(): Promise<void>;
  /**
   * Resolves once this device is connected, has exchanged state with the server, and has nothing
   * pending (every change heard so far sent). Waits through disconnections; `TIMEOUT` after
   * `timeoutMs` (default 30,000).
   */
  synced(timeoutMs?: number): Promise<void>;
  /** The memories whose text was edited on two devices at once, on every device the same. */
  conflicts(): SyncConflict[];
  /**
   * Settles a conflict on `text` (its text now, one of `others`, or any text a person wrote, 1
   * to 100,000 characters): the memory's text becomes it on every device, as an edit made over
   * both versions. `NOT_FOUND` when the memory has no conflict.
   */
  resolveConflict(id: string, text: string): Promise<void>;
  /**
   * The memories forgotten on any device in the last 30 days (the sync's `trashDays`), the latest
   * first: their last state stays sealed in the room until then, to be restored.
   */
  trash(): TrashedMemory[];
  /** Brings a memory back from the trash on every device. `NOT_FOUND` when it is not in the trash. */
  restore(id: string): Promise<void>;
  /**
   * Purges memories from the trash now (all of it when `ids` is undefined): their text leaves the
   * room and every device's copy of it. Returns how many were purged.
   */
  emptyTrash(ids?: readonly string[]): Promise<number>;
  /** The room's devices (this one first), each with its name and when it was last online. */
  devices(): SyncDevice[];
  /** Renames this device in the list (1–100 characters). */
  renameDevice(name: string): Promise<void>;
  /**
   * Removes a device (a lost phone): the sync code changes, every other device listed moves to
   * the new room by itself, the old room is emptied, and the removed device is told nothing new
   * (`SYNC_REMOVED` there). Resolves with the new code (for the app to keep, and to pair a new
   * device with) once this device has moved. `INVALID_INPUT` for this device, `NOT_FOUND` for one
   * not listed, `TIMEOUT` when this device is not connected to the server within 10 s.
   */
  removeDevice(id: string): Promise<string>;
  /**
   * Calls `listener` with the new sync code when this device moved to a new room (another device
   * removed one, or this one did): an app that keeps the code to start sync again keeps this one.
   */
  onCodeChange(listener: (code: string) => void): () => void;
  /** Stops the sync and saves its state; the store is left open. */
  close(): Promise<void>;
}

/** Where the store that a sync starts on lives (what a plugin keeps its own state beside). */
export interface SyncPlace {
  /** The store's name (`openMemory`'s `name`, or the engine's). */
  name: string;
  /** A file store's path (Node, `storage: 'file'`); absent for OPFS and memory stores. */
  path?: string;
}

/**
 * A sync to start on a store once it is open (`browserSync(…)` from `@anamnesis/sync/browser`,
 * `nodeSync(…)` from `@anamnesis/sync/node`). `T` is what it syncs: the engine, or the client (both have what `@anamnesis/sync` needs).
 */
export interface SyncPlugin<T = unknown> {
  /**
   * Starts syncing `store`; resolves with the running sync. When `signal` aborts before it runs
   * (the store closes while a browser tab still waits for the sync lock), it gives up and rejects.
   */
  start(store: T, place: SyncPlace, signal: AbortSignal): Promise<StoreSync>;
}
