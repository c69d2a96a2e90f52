// The types of faan.js, written by types.mjs from openapi/openapi.json
// (faan API 0.1.0). Do not edit: run node web/pkg/types.mjs.

/** An endpoint's problem, as a rejection: `status` is the HTTP status. */
export interface FaanError extends Error {
  status: number;
  problem: Problem | null;
}

/** What the server would send: status, content type and body. */
export interface Answer {
  status: number;
  contentType: 'application/json' | 'application/problem+json';
  body: string;
}

/** Loads the module once (by default faan.wasm beside faan.js). */
export function init(source?: URL | string | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** Answers a request as the server does (an unknown path is its 404 problem). */
export function respond(method: string, path: string, bodyText?: string): Promise<Answer>;
/** POST /v1/score */
export function score(request: ScoreRequest | string): Promise<ScoreResponse>;
/** POST /v1/settle */
export function settle(request: SettleRequest | string): Promise<SettleResponse>;
/** POST /v1/ledger */
export function ledger(request: LedgerRequest | string): Promise<LedgerResponse>;
/** POST /v1/analyze */
export function analyze(request: AnalyzeRequest | string): Promise<AnalyzeResponse>;
/** POST /v1/waits */
export function waits(request: WaitsRequest | string): Promise<WaitsResponse>;
/** POST /v1/score/batch */
export function batch(request: BatchRequest | string): Promise<BatchResponse>;
/** POST /v1/compare */
export function compare(request: CompareRequest | string): Promise<CompareResponse>;
/** POST /v1/penalties/false-win */
export function falseWin(request: FalseWinRequest | string): Promise<FalseWinResponse>;
/** POST /v1/rulesets/validate */
export function validate(request: ValidateRequest | string): Promise<RulesetDetail>;
/** GET /v1/rulesets */
export function rulesets(): Promise<RulesetList>;
/** GET /v1/rulesets/{id} */
export function ruleset(id: string): Promise<RulesetDetail>;
/** GET /v1/patterns */
export function patterns(): Promise<PatternTable>;

/** A tile kind whose draw lowers the best shanten. */
export type AcceptedTile = {
  tile: string;
  /** Copies not in the hand, its melds or `seen`. */
  unseen: number;
};

/** POST /v1/analyze: 13 tiles waiting for a draw, or 14 about to discard
 * (a declared meld counting as three, a kong too), no `winning_tile`. */
export type AnalyzeRequest = {
  chances?: null | ChancesRequest;
  context: WaitContextDto;
  hand: HandDto;
  house_rules?: null | HouseRulesDto;
  /** A ruleset id (GET /v1/rulesets lists them) or a ruleset document. */
  ruleset: RulesetRef;
  /** Tiles in sight elsewhere (discards, other players' melds). */
  seen?: string | null;
};

/** POST /v1/analyze, 200. */
export type AnalyzeResponse = {
  /** 13 tiles: the kinds whose draw lowers `shanten.best`, in tile order. */
  acceptance?: AcceptedTile[] | null;
  acceptance_count?: number | null;
  chances?: null | ChancesDto;
  complete?: null | CompleteDto;
  /** 14 tiles: one entry per distinct concealed kind, best first. */
  discards?: DiscardDto[] | null;
  ruleset: string;
  shanten: ShantenDto;
  /** 13 tiles, ready: as `POST /v1/waits` answers them. */
  waits?: WaitDto[] | null;
};

/** POST /v1/score/batch. */
export type BatchRequest = {
  /** Score requests; each is checked and scored on its own. */
  requests: ScoreRequest[];
};

/** POST /v1/score/batch, 200: one item per request, in order. */
export type BatchResponse = {
  /** Each item is a score result or a problem document (it has `type` and `status`). */
  results: Array<Record<string, unknown>>;
};

/** A player's largest win. */
export type BiggestDto = {
  /** Its faan as paid. */
  faan: number;
  /** The hand's index. */
  hand: number;
};

/** The chances of a hand within the draws asked for. */
export type ChancesDto = {
  /** Points the player expects to collect, in the ruleset's points. */
  expected_points: number;
  /** `ready[t-1]`: the probability of having been ready within `t` draws. */
  ready: number[];
  /** `win[t-1]`: the probability of having won within `t` draws. */
  win: number[];
};

/** How far ahead to look. */
export type ChancesRequest = {
  /** Whether wins on the three other players' discards count too. */
  discards?: boolean;
  /** Draws the player will still make (1 to 30). */
  draws: number;
  /** With 14 tiles: whether the discards that raise shanten get chances
   * too; `false` leaves their `chances` out, for a fraction of the work. */
  every_discard?: boolean;
  /** Whether the player may keep a draw that does not lower shanten and
   * throw another tile instead (docs/analysis.md states the model). */
  hand_changes?: boolean;
  /** Whether the player may also throw a tile that raises shanten by one. */
  shanten_down?: boolean;
};

/** POST /v1/compare: a score request with `rulesets` in place of `ruleset`. */
export type CompareRequest = {
  context: ContextDto;
  hand: HandDto;
  house_rules?: null | HouseRulesDto;
  /** A list of rulesets (ids or ruleset documents), or `"all"`. */
  rulesets: RulesetsDto;
};

/** POST /v1/compare, 200. */
export type CompareResponse = {
  /** Ruleset id to a score result or a problem document. */
  results: Record<string, unknown>;
};

/** The score of declaring the 14 tiles now, by self-draw. */
export type CompleteDto = {
  base_points: number;
  lines: LineDto[];
  meets_minimum: boolean;
  total_faan: number;
};

/** One per-ruleset switch (`rulesets/README.md`, "Conditions"). */
export type ConditionInfoDto = {
  /** Its value where a ruleset does not set it. */
  default: boolean;
  /** What `true` means. */
  description: string;
  /** The key in a ruleset's pattern entry and in `house_rules.conditions`. */
  key: string;
  /** The patterns it applies to. */
  patterns: PatternId[];
};

/** The circumstances of the win. */
export type ContextDto = {
  discarder?: null | WindDto;
  /** Won on the replacement of a kong made from a kong replacement. */
  double_kong?: boolean;
  /** Blessing of earth. */
  earthly?: boolean;
  /** Won on a discard before drawing a tile of one's own (a non-dealer in the first go-around; 人和). */
  first_go_around?: boolean;
  /** A second replacement draw: the replacement before the winning one (`kong` or `flower` before a winning flower replacement; `flower` before a winning kong replacement, the flower replacement having completed the kong; `none` by default). */
  first_replacement?: ReplacementDto;
  /** The hand wins on its seven or eight bonus tiles. */
  flower_win?: boolean;
  /** Blessing of heaven. */
  heavenly?: boolean;
  /** The other three copies of the winning tile are in sight (絕章). */
  last_of_its_kind?: boolean;
  /** Won on the last wall tile, or the discard after it. */
  last_tile?: boolean;
  liable?: null | WindDto;
  replacement?: ReplacementDto;
  /** Robbing a kong: `added` (a promoted pung, the default) or `concealed` (robbed only to complete thirteen orphans). */
  robbed_kong?: RobbedKongDto;
  round_wind: WindDto;
  seat_wind: WindDto;
  win_by: WinByDto;
};

/** `full_spicy`: B = 2^faan; `half_spicy`: 1, 2, 4, 8, 16, then x1.5 and x4/3 in turn. */
export type CurveDto = "full_spicy" | "half_spicy";

/** A win entered without tiles: exactly one of `faan`, `limit` and `patterns`. */
export type DeclaredDto = {
  /** The faan the table counted (0 to 255); below the minimum it cannot be declared, above the limit it is paid at the limit. */
  faan?: number | null;
  /** `true`: a limit hand. */
  limit?: boolean | null;
  /** Pattern ids (GET /v1/patterns), each counted at the ruleset's value; a pattern with `max_count` above 1 may repeat that often. */
  patterns?: PatternId[] | null;
};

/** A declared winner's result: a score result without tiles (no readings, no `hand_hash`), its lines those a scored hand would have for the declared patterns. */
export type DeclaredResult = {
  base_points: number;
  /** The faan declared, as sent (`declared.faan`); `total_faan` is what is paid. */
  declared_faan?: number | null;
  limit: number;
  limit_hand: boolean;
  lines: LineDto[];
  meets_minimum: boolean;
  min_faan: number;
  missing_faan: number;
  money?: null | MoneyDto;
  paid: boolean;
  payments: Payments;
  raw_faan: number;
  ruleset: string;
  ruleset_hash: string;
  /** `declared`: declared without tiles. */
  source: "declared";
  total_faan: number;
  winner: WindDto;
};

/** One reading of the hand and its score. */
export type Decomposition = {
  /** `standard`, `seven_pairs`, `thirteen_orphans` or `flower_win`. */
  form: string;
  limit_hand: boolean;
  lines: LineDto[];
  /** The pair as its tile twice (`22p`); the doubled tile for thirteen orphans; null for seven pairs and a flower win. */
  pair?: string | null;
  /** Seven pairs: the seven pairs (`11m`, ...). */
  pairs?: string[] | null;
  raw_faan: number;
  /** The sets in detail, in the order of `sets`. */
  set_details: SetDto[];
  /** The four sets of a standard reading (empty for the special forms). */
  sets: string[];
  /** Thirteen orphans: the twelve single tiles beside `pair`, in tile order (`1m`, `9m`, ...). */
  singles?: string[] | null;
  total_faan: number;
  /** The winning tile completed the pair. */
  winning_in_pair: boolean;
};

/** The hand after one discard. */
export type DiscardDto = {
  acceptance: AcceptedTile[];
  acceptance_count: number;
  chances?: null | ChancesDto;
  shanten: number;
  tile: string;
  /** Where this discard leaves the hand ready: as `POST /v1/waits`. */
  waits?: WaitDto[] | null;
};

export type DiscardPaymentDto = "discarder_pays_all" | "discarder_pays_half" | "discarder_pays_double";

/** The false win's penalty: `minimum` (the offender pays each of the three what a self-drawn win at the minimum would pay that player), `limit` (a self-drawn limit hand, 賠三家滿糊), `{"faan": N}` (a self-drawn win of N faan, 0 to 255) or `{"points": P}` (P points to each, 1 to 2^40). */
export type FalseWinDto = "minimum" | "limit" | ({
  faan: number;
}) | ({
  points: number;
});

/** POST /v1/penalties/false-win. */
export type FalseWinRequest = {
  house_rules?: null | HouseRulesDto;
  /** The seat that declared a false win. */
  offender: WindDto;
  /** A ruleset id (GET /v1/rulesets lists them) or a ruleset document. */
  ruleset: RulesetRef;
};

/** POST /v1/penalties/false-win, 200. */
export type FalseWinResponse = {
  /** Base points at the minimum. */
  base_points: number;
  /** The ruleset's minimum faan (after house rules). */
  min_faan: number;
  money?: null | MoneyDto;
  offender: WindDto;
  /** Signed points by seat: the offender pays each other player what that player would collect on a self-drawn win at the minimum. */
  payments: Payments;
  ruleset: string;
};

/** A player's largest win in a group: the night, the hand and its faan. */
export type GroupBiggestDoc = {
  faan: number;
  /** The hand's index in that night. */
  hand: number;
  /** The table's id. */
  table: string;
};

/** `POST /v1/groups`. */
export type GroupCreateRequest = {
  /** 1 to 64 characters. */
  name: string;
};

/** `POST /v1/groups`' answer: the key is shown this once. */
export type GroupCreated = {
  id: string;
  key: string;
  /** `/g/{id}`: the group's page. */
  view_path: string;
};

/** A group's nights, newest first, and its statistics summed over them. */
export type GroupDoc = {
  id: string;
  name: string;
  nights: NightDoc[];
  stats: GroupStatsDoc[];
};

/** A group named by its id and key. */
export type GroupRef = {
  id: string;
  key: string;
};

/** A player's statistics over every night they sat in. */
export type GroupStatsDoc = {
  biggest?: null | GroupBiggestDoc;
  dealt_in: number;
  false_wins: number;
  hands_won: number;
  /** Money summed over the nights with a stake. */
  money?: number | null;
  /** How many nights this player sat in. */
  nights: number;
  player: string;
  /** The balance in points, summed. */
  points: number;
  self_draws: number;
  wins_on_discard: number;
};

/** A hand added to a table: the `hand` event's data, and the answer to an
 * append with `Prefer: return=minimal`. Applied to the `TABLE` of the
 * version before: `request.hands` gains `request`, `ledger.hands` gains
 * `hand`, the rest of `ledger` becomes `ledger`, and `version` and
 * `updated_at` are these. */
export type HandChange = {
  /** The ledger's new row (the last of `ledger.hands`). */
  hand: Record<string, unknown>;
  /** The ledger's answer without its `hands`. */
  ledger: Record<string, unknown>;
  /** The hand as the table's request now holds it. */
  request: LedgerHandDto;
  updated_at: string;
  version: number;
};

/** The tiles of the winning hand. */
export type HandDto = {
  /** Bonus tiles: `F1`..`F4` (flowers), `S1`..`S4` (seasons), the number being the seat; or their Unicode tiles (U+1F022..U+1F029). At most eight, each once. */
  flowers?: string[];
  /** Sets declared before the win. */
  melds?: MeldDto[];
  /** The concealed tiles, winning tile included: MPSZ (`234m567m22p`), Unicode mahjong tiles (U+1F000..U+1F021, `🀊🀋🀌`) or both mixed. */
  tiles: string;
  /** The tile that completed the hand (MPSZ or one Unicode tile); one of `tiles`. Left out only for a flower win. */
  winning_tile?: string | null;
};

/** What a hand came to. */
export type HandResultDto = "win" | "draw" | "false_win" | "rules" | "new_game";

/** GET /healthz and /readyz. */
export type Health = {
  /** Rulesets loaded. */
  rulesets: number;
  status: string;
};

/** Overrides of the ruleset for one request (the editable table). */
export type HouseRulesDto = {
  /** Several winners on one discard, under a payment where the other players pay too (classical): `true`, one winner pays another's share; `false` (the default), a winner never pays in a hand it won. */
  co_winners_pay?: boolean | null;
  /** Condition key to true or false (`rulesets/README.md`, "Conditions"), set on every pattern it applies to. */
  conditions?: {
    [key: string]: boolean;
  };
  /** Pattern id to the ids it contains, replacing its own list (`{"seven_pairs": []}`: seven pairs stacks with the concealed hand). A chain that comes back to its start is a 422. */
  contains?: {
    [key: string]: string[];
  };
  /** A match: the dealer deals again after a draw. */
  dealer_keeps_on_draw?: boolean | null;
  /** A match: a winning dealer deals again. */
  dealer_keeps_on_win?: boolean | null;
  /** Every payment between the dealer (East) and another seat is multiplied by it (at least 1, a multiple of 1/8). */
  dealer_multiplier?: number | null;
  discard_payment?: null | DiscardPaymentDto;
  /** Pairs of pattern ids that exclude each other: where both hold, only the higher scoring line is kept. */
  exclusive?: Array<string[]>;
  false_win?: null | FalseWinDto;
  /** Are bonus tiles in play. */
  flowers?: boolean | null;
  liable_discard?: null | LiableDiscardDto;
  /** The faan cap. */
  limit?: number | null;
  /** Limit patterns add to the other lines and the total has no cap. */
  limits_add?: boolean | null;
  limits_pay?: null | LimitsPayDto;
  min_faan?: number | null;
  multiple_winners?: null | MultipleWinnersDto;
  /** Pattern id to faan (a number), `"limit"` (a limit pattern), or `null` (not scored), each id once; applied in id order, whatever the order of the keys. */
  patterns?: Record<string, unknown>;
  points?: null | PointsDto;
  /** Money per point (above 0, at most a million, at most six decimal places as written: `1.0000004` is a 422); money is then whole cents. */
  stake?: number | null;
};

/** A score context whose seats the ledger knows: `discarder` and `liable`
 * name players; `seat_wind` and `round_wind` may be left out (if given,
 * they must be what the ledger derives). */
export type LedgerContextDto = {
  /** The player who discarded (or added the robbed kong). */
  discarder?: string | null;
  double_kong?: boolean;
  earthly?: boolean;
  first_go_around?: boolean;
  first_replacement?: ReplacementDto;
  flower_win?: boolean;
  heavenly?: boolean;
  last_of_its_kind?: boolean;
  last_tile?: boolean;
  /** The player who pays for everyone (包). */
  liable?: string | null;
  replacement?: ReplacementDto;
  /** As in a score request's context. */
  robbed_kong?: RobbedKongDto;
  round_wind?: null | WindDto;
  seat_wind?: null | WindDto;
  win_by: WinByDto;
};

/** One hand of the match: a win with its `winners`, a draw, a false win with its `offender`, a change of rules with its `house_rules`, or a new game with its `players` and `dealer`. */
export type LedgerHandDto = {
  /** A new game: its first dealer, one of the players (default: the first of `players`, the east seat). */
  dealer?: string | null;
  house_rules?: null | HouseRulesDto;
  /** A false win: the player who declared it. */
  offender?: string | null;
  /** A new game: the four players in their new seats, east, south, west, north (default: the seats as they are). */
  players?: string[] | null;
  result: HandResultDto;
  /** A win: one to three winners (several share one discard or robbed kong). */
  winners?: LedgerWinnerDto[];
};

/** One hand of the answer. */
export type LedgerHandOut = {
  /** The running sum of the deltas. */
  balances: {
    [key: string]: number;
  };
  dealer: string;
  /** The dealer's consecutive kept deals before this hand (連莊). */
  dealer_streak: number;
  /** The hand's payments by player (they sum to zero); none for a change of rules or a new game. */
  deltas?: ({
    [key: string]: number;
  }) | null;
  /** The game of the night, from 1. */
  game: number;
  /** A change of rules: its house rules as sent. */
  house_rules?: Record<string, unknown> | null;
  /** A change of rules: every house rule in force after it. */
  in_force?: Record<string, unknown> | null;
  index: number;
  /** The hand's money by player, to the cent, where there is a stake or a chip rate. */
  money?: ({
    [key: string]: number;
  }) | null;
  /** The played hand's number from 1 (a win, a draw or a false win); null for a change of rules or a new game. */
  number?: number | null;
  /** A false win: who declared it. */
  offender?: string | null;
  result: HandResultDto;
  round_wind: WindDto;
  /** Each player's seat wind in this hand. */
  seats: {
    [key: string]: WindDto;
  };
  /** A win: each winner in request order. */
  winners?: LedgerWinnerOut[];
};

/** The match in money, to the cent. */
export type LedgerMoneyDto = {
  balances: {
    [key: string]: number;
  };
  /** Money per point, when a stake is set. */
  stake?: number | null;
  transfers: MoneyTransferDto[];
};

/** POST /v1/ledger: the players and every hand of the match so far, in order. */
export type LedgerRequest = {
  /** The hands in order (at most 2,000 by default: `--ledger-hands`). */
  hands: LedgerHandDto[];
  house_rules?: null | HouseRulesDto;
  /** Four distinct names of 1 to 32 characters, seated east, south, west, north for the first hand when `players[0]` deals. */
  players: string[];
  /** A ruleset id (GET /v1/rulesets lists them) or a ruleset document. */
  ruleset: RulesetRef;
  start?: null | LedgerStartDto;
};

/** POST /v1/ledger, 200. */
export type LedgerResponse = {
  /** Points by player at the end. */
  balances: {
    [key: string]: number;
  };
  hands: LedgerHandOut[];
  money?: null | LedgerMoneyDto;
  /** The deal after the last hand. */
  next: NextDto;
  ruleset: string;
  /** All four, best first; equal balances share a rank. */
  standings: StandingDto[];
  /** Each player's night in figures, in player order. */
  stats: StatsDto[];
  /** The fewest payments that settle every balance (找數; at most three). */
  transfers: TransferDto[];
};

/** Where the match starts. */
export type LedgerStartDto = {
  /** A player's name. */
  dealer?: string | null;
  round_wind?: null | WindDto;
};

/** A winner of a ledger hand: its `hand`, or what the table `declared`. */
export type LedgerWinnerDto = {
  context: LedgerContextDto;
  declared?: null | DeclaredDto;
  hand?: null | HandDto;
  /** A player's name. */
  player: string;
};

/** A winner of a hand: the score's chosen reading, in brief. */
export type LedgerWinnerOut = {
  base_points: number;
  /** The faan declared, as sent; `total_faan` is what was paid. */
  declared_faan?: number | null;
  /** The chosen reading's form (none for a declared winner). */
  form?: string | null;
  limit_hand: boolean;
  lines: LineDto[];
  /** The winner is paid (under `head_bump` only the first after the discarder). */
  paid: boolean;
  player: string;
  /** SHA-256 (hex) of the ruleset the hand was scored under (after `extends`, before house rules), as in a score result. */
  ruleset_hash: string;
  seat: WindDto;
  /** `tiles` (scored from its hand) or `declared`. */
  source: string;
  total_faan: number;
};

export type LiableDiscardDto = "as_usual" | "pays_all" | "liable_pays";

export type LimitsPayDto = "per_limit" | "once";

/** One faan line. */
export type LineDto = {
  faan: number;
  /** A limit pattern: its faan is the total, nothing else is added. */
  limit: boolean;
  /** The pattern's one English name (the same in every ruleset). */
  name: string;
  /** Its Traditional Chinese name. */
  name_zh: string;
  /** Pattern id (contract list). */
  pattern: string;
};

/** A set declared before the win. */
export type MeldDto = {
  /** A kong promoted from an exposed pung. */
  added?: boolean;
  /** A kong declared from the hand (not claimed). */
  concealed?: boolean;
  kind: MeldKindDto;
  /** The meld's tiles: MPSZ (`777z`, `1111s`), Unicode tiles (`🀄🀄🀄`) or both. */
  tiles: string;
};

export type MeldKindDto = "chow" | "pung" | "kong";

/** The payments in money: at a stake (house rule `stake`, or a ruleset's
 * `[table]` default), or at the ruleset's own chip rate. */
export type MoneyDto = {
  /** Chips each paying player adds to every payment (the ruleset's own rate). */
  bonus_chips?: number | null;
  payments?: null | MoneyPayments;
  /** Money per point, when a stake is set (it then takes the place of any chip rate). */
  stake?: number | null;
  /** The ruleset's own rate (no stake set). */
  usd_per_100_chips?: number | null;
};

/** Signed amounts in US dollars by seat. */
export type MoneyPayments = {
  east: number;
  north: number;
  south: number;
  west: number;
};

/** One payment of the settling up, in money. */
export type MoneyTransferDto = {
  amount: number;
  from: string;
  to: string;
};

export type MultipleWinnersDto = "all" | "head_bump";

/** The deal after the last hand. */
export type NextDto = {
  /** The north round is over: no hand may follow. */
  complete: boolean;
  dealer: string;
  dealer_streak: number;
  round_wind: WindDto;
};

/** One night of a group. */
export type NightDoc = {
  /** Each player's balance in points. */
  balances: {
    [key: string]: number;
  };
  created_at: string;
  /** Hands played. */
  hands: number;
  /** The table's id. */
  id: string;
  players: string[];
  title?: string | null;
};

/** A pattern as a ruleset scores it. */
export type PatternDto = {
  /** The ruleset's switches for this pattern (only those that apply to it). */
  conditions: Record<string, unknown>;
  /** Pattern ids this one contains or replaces (not scored beside it). */
  contains: string[];
  /** What the pattern scores: its faan, or the limit value of a limit pattern. */
  faan: number;
  /** The ruleset's guide's own wording (`name` where the guide has none of its own). */
  guide_name: string;
  /** The guide's wording when the win was on a discard, where it differs. */
  guide_name_on_discard?: string | null;
  id: string;
  limit: boolean;
  /** The pattern's one English name (the same in every ruleset). */
  name: string;
  /** Its Traditional Chinese name. */
  name_zh: string;
  note?: string | null;
  /** Faan as a number, or `"limit"` for a limit pattern. */
  value: number | "limit";
};

/** A pattern id (docs/api.md; GET /v1/rulesets/{id} shows each with its names). */
export type PatternId = "chicken_hand" | "all_chows" | "self_draw" | "concealed_hand" | "dragon_pung" | "seat_wind" | "round_wind" | "no_flowers" | "seat_flower" | "flower_set" | "seven_flowers" | "eight_flowers" | "replacement_tile" | "robbing_kong" | "last_tile" | "double_kong" | "all_pungs" | "mixed_one_suit" | "pure_one_suit" | "mixed_terminals" | "seven_pairs" | "small_three_dragons" | "big_three_dragons" | "small_four_winds" | "big_four_winds" | "all_honors" | "all_terminals" | "four_concealed_pungs" | "all_kongs" | "nine_gates" | "thirteen_orphans" | "heavenly_hand" | "earthly_hand" | "jade_dragon" | "ruby_dragon" | "pearl_dragon" | "fully_concealed" | "melded_hand" | "all_simples" | "voided_suit" | "last_of_its_kind" | "moon_from_the_bottom" | "plum_blossom_on_the_roof" | "prevailing_flower" | "double_flower_replacement" | "kong_flower_replacement" | "common_hand" | "thirteen_sided_orphans" | "human_hand";

/** One pattern the engine recognises. */
export type PatternInfoDto = {
  /** It counts bonus tiles (or their absence): it holds only where they are in play. */
  bonus_tiles: boolean;
  /** The keys of the switches (`conditions`) that apply to it. */
  conditions: string[];
  /** What it contains (not scored beside it) when a house rule, or a
   * document under `extends` without a `contains` of its own, adds it to
   * a ruleset that does not score it. A ruleset that scores it has its own
   * list (`GET /v1/rulesets/{id}`). */
  contains_when_added: PatternId[];
  /** The contract's id (a ruleset's `[patterns.<id>]`, a line's `pattern`). */
  id: PatternId;
  /** How many times a declared win may list it (a hand can hold three
   * dragon pungs, two seat flowers, two sets of flowers; every other
   * pattern once): above 1, it may repeat. */
  max_count: number;
  /** The one English name (the same in every ruleset). */
  name: string;
  /** The Traditional Chinese name. */
  name_zh: string;
  only_on?: null | WinByDto;
  /** Off in every built-in ruleset (a pattern of other Hong Kong tables):
   * scored only when a house rule or a document adds it. */
  optional: boolean;
};

/** GET /v1/patterns: every pattern and every condition, in contract order. */
export type PatternTable = {
  conditions: ConditionInfoDto[];
  patterns: PatternInfoDto[];
};

/** Who pays, in multiples of the base points B. */
export type PaymentDto = {
  /** Discard win: the discarder pays this times B. */
  discarder: number;
  /** Discard win: each of the two others pays this times B. */
  others: number;
  /** `as_discard` (paid as a discard by the player who added the kong) or `adder_pays_all`. */
  robbing_kong: string;
  /** Self-draw: each of the three others pays this times B. */
  self_draw: number;
};

/** Signed points by seat; positive for the winner, summing to zero. */
export type Payments = {
  east: number;
  north: number;
  south: number;
  west: number;
};

/** The points curve of a house rule: a curve name, or base points by faan from 0. */
export type PointsDto = CurveDto | number[];

/** Base points by faan. */
export type PointsDtoOut = {
  /** `full_spicy`, `half_spicy` or `table`. */
  curve: string;
  /** Base points for 0, 1, ... faan up to the limit. */
  table: number[];
};

/** An error response (RFC 9457 problem details). */
export type Problem = {
  detail: string;
  /** Every broken rule, each with a JSON Pointer into the request (may be empty). */
  errors: ProblemError[];
  status: number;
  title: string;
  /** A URI reference naming the kind of problem: `/problems/<slug>`. */
  type: string;
};

/** One broken rule: a JSON Pointer into the request and what is wrong there. */
export type ProblemError = {
  /** The rule broken (absent where the problem has no code): clients word the message from it and `params`. */
  code?: "tile_notation" | "bonus_notation" | "meld_flag_not_kong" | "kong_concealed_and_added" | "meld_too_long" | "meld_size" | "not_a_chow" | "not_a_set" | "too_many_tiles" | "too_many_melds" | "winning_tile_while_waiting" | "winning_tile_required" | "winning_tile_not_in_hand" | "bonus_twice" | "too_many_bonus_tiles" | "bonus_off" | "tile_over_four" | "winners_tile_over_four" | "co_winner_self_draw" | "co_winner_win_by" | "co_winner_discarder" | "co_winner_round_wind" | "co_winner_seat" | "co_winner_winning_tile" | "waiting_complete" | "waiting_short" | "waiting_over" | "analysis_tile_count" | "seen_over_four" | "chances_too_far" | "chances_too_large" | "tile_count" | "discarder_on_self_draw" | "discarder_required" | "discarder_required_robbing" | "discarder_is_winner" | "liable_is_winner" | "replacement_not_self_draw" | "kong_replacement_without_kong" | "robbed_kong_without_robbing" | "concealed_kong_robbed_not_orphan" | "last_of_its_kind_flower_win" | "second_replacement_not_flower" | "two_flower_replacements" | "double_kong_replacement" | "double_kong_two_kongs" | "heavenly_not_east" | "heavenly_not_self_draw" | "heavenly_melds" | "earthly_east" | "earthly_not_discard" | "earthly_discarder" | "earthly_melds" | "heavenly_and_earthly" | "robbing_count" | "flower_win_ruleset" | "flower_win_count" | "flower_win_self_draw" | "flower_win_not_scored" | "first_go_around_east" | "first_go_around_not_discard" | "first_go_around_melds" | "winner_count" | "ledger_too_many_hands" | "match_complete" | "game_not_complete" | "new_game_players" | "balance_overflow" | "player_count" | "player_name_empty" | "player_name_long" | "player_repeated" | "unknown_player" | "unknown_player_long" | "winner_repeated" | "seat_wind_mismatch" | "round_wind_mismatch" | "ledger_discarder_is_winner" | "below_minimum" | "winners_not_win" | "offender_not_false_win" | "offender_required" | "hand_or_declared" | "declared_one_of" | "pattern_not_scored" | "pattern_repeated" | "pattern_not_on_win" | "declared_context_field" | "house_rules_not_rules" | "seats_not_new_game" | "not_winning" | "unknown_ruleset" | "money_unrepresentable" | "faan_overflow" | "base_points_overflow";
  /** What is wrong, in English. */
  message: string;
  /** The values the message names, by the names of the code's message
   * (README, "Errors"). */
  params?: Record<string, unknown> | null;
  /** JSON Pointer (RFC 6901) into the request body. */
  pointer: string;
};

/** Which replacement draw, if any, was the winning tile. */
export type ReplacementDto = "none" | "kong" | "flower";

/** Which kind of kong a robbing-the-kong win robbed. */
export type RobbedKongDto = "added" | "concealed";

/** GET /v1/rulesets/{id}: the whole chart. */
export type RulesetDetail = {
  bonus_tiles: boolean;
  /** Pairs of patterns that exclude each other: where both hold, only the higher scoring line is kept (the first of the pair on a tie); `[]` when none. */
  exclusive: Array<string[]>;
  id: string;
  limit: number;
  /** What a limit pattern scores. */
  limit_faan: number;
  /** Limit patterns add to the other lines and the total has no cap. */
  limits_add: boolean;
  /** How a total above the limit pays (only under `limits_add`). */
  limits_pay: LimitsPayDto;
  min_faan: number;
  /** The minimum settings a house rule may choose (empty: any). */
  min_faan_settings: number[];
  money?: null | MoneyDto;
  name: string;
  /** The name in Traditional Chinese (`name` for a document that gives none). */
  name_zh: string;
  /** Every interpretation made where the guide is silent or ambiguous. */
  notes: string[];
  /** The notes in Traditional Chinese (a translation; absent where the ruleset gives none). */
  notes_zh?: string[] | null;
  patterns: PatternDto[];
  payment: PaymentDto;
  points: PointsDtoOut;
  /** SHA-256 (hex) of the ruleset's canonical document, before house rules: the `ruleset_hash` of its score results. */
  ruleset_hash: string;
  source: string[];
  summary: string;
  /** The table's customs (`[table]`): the defaults of the house rules of the same names. */
  table: TableDto;
  version: number;
};

/** A whole ruleset: the keys of a ruleset file (rulesets/README.md) in JSON. With `extends` (a built-in id) it is a JSON merge patch (RFC 7386) over that ruleset's document: every key is optional, objects merge key by key, null removes a key, arrays replace. Without `extends`, min_faan, limit, bonus_tiles, points, payment and table are required; id defaults to "custom", name to "Custom ruleset", version to 1, source, summary and notes to empty. Condition keys of a pattern: pair_may_be_value_tile, allow_concealed_kong, only_without_flowers, on_flower_replacement, on_discard, self_draw_only, all_pungs, any_replacement, discard_only_in_pair, absorbs_seat_flower, on_seven_pairs, on_thirteen_orphans, four_as_two_pairs, no_concealed_kong, pure_only, with_kong, thirteen_sided_only, self_draw_allowed, pair_wait_only, more_than_one_suit, either_order, scores_the_draw. */
export type RulesetDocument = {
  /** Flowers and seasons in play by default. */
  bonus_tiles?: boolean;
  /** Pairs of patterns that exclude each other (the higher scoring line is kept). */
  exclusive?: Array<PatternId[]>;
  /** A built-in ruleset id to start from. */
  extends?: string;
  /** The id the answer's `ruleset` says. */
  id?: string;
  /** The cap on the total faan. */
  limit?: number;
  /** What a limit pattern with faan "limit" scores (default: limit; above limit is refused). */
  limit_faan?: number;
  /** A limit pattern's value adds to the other lines and the total has no cap. */
  limits_add?: boolean;
  /** How a total above the limit (only under limits_add) pays: per_limit, each whole limit pays the limit's base points and the faan left over their own; once, the limit's base points at most. */
  limits_pay?: "per_limit" | "once";
  min_faan?: number;
  /** The minimum settings a house rule may choose (absent or empty: any). */
  min_faan_settings?: number[];
  money?: ({
    bonus_chips?: number;
    usd_per_100_chips: number;
  }) | null;
  name?: string;
  /** The name in Traditional Chinese (a translation of `name`; not in `ruleset_hash`). A document that changes `name` without it drops the base's. */
  name_zh?: string;
  notes?: string[];
  /** The notes in Traditional Chinese (a translation of `notes`; not in `ruleset_hash`). A document that changes `notes` without it drops the base's. */
  notes_zh?: string[];
  /** One entry per pattern the ruleset scores; a pattern not listed is not scored. */
  patterns?: {
    /** All chows (平糊). null (with extends): not scored. */
    all_chows?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** all_chows: the pair may be a dragon, seat wind or round wind (false in sc-hk13). */
      pair_may_be_value_tile?: boolean;
    }) | null;
    /** All honours (字一色). null (with extends): not scored. */
    all_honors?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** All kongs (十八羅漢). null (with extends): not scored. */
    all_kongs?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** All pungs (對對糊). null (with extends): not scored. */
    all_pungs?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** All simples (斷么). null (with extends): not scored. */
    all_simples?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** All terminals (么九). null (with extends): not scored. */
    all_terminals?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Big four winds (大四喜). null (with extends): not scored. */
    big_four_winds?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Big three dragons (大三元). null (with extends): not scored. */
    big_three_dragons?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Chicken hand (雞糊). null (with extends): not scored. */
    chicken_hand?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Common hand (無花自摸平糊). null (with extends): not scored. */
    common_hand?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** common_hand: the hand holds at least two of the three suits (no one-suit hand). */
      more_than_one_suit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Concealed hand (門前清). null (with extends): not scored. */
    concealed_hand?: ({
      /** concealed_hand: a concealed kong keeps the hand concealed (false in hkma: no kong at all). */
      allow_concealed_kong?: boolean;
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** concealed_hand: a discard may complete only the pair (a discard completing a set breaks it). */
      discard_only_in_pair?: boolean;
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** concealed_hand: scores only when bonus tiles are not in play (hkma). */
      only_without_flowers?: boolean;
    }) | null;
    /** Win by double flower replacement (花上花). null (with extends): not scored. */
    double_flower_replacement?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Win by double kong (槓上槓). null (with extends): not scored. */
    double_kong?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Dragon pung (三元牌). null (with extends): not scored. */
    dragon_pung?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Earthly hand (地糊). null (with extends): not scored. */
    earthly_hand?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Eight flowers (花糊). null (with extends): not scored. */
    eight_flowers?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** seven_flowers, eight_flowers: a flower win on this count also scores the self-draw line and the replacement tile's line (where a flower replacement scores it). */
      scores_the_draw?: boolean;
    }) | null;
    /** Set of flowers (一台花). null (with extends): not scored. */
    flower_set?: ({
      /** flower_set: the seat flower inside a complete set scores no seat-flower line of its own. */
      absorbs_seat_flower?: boolean;
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Four concealed pungs (坎坎糊). null (with extends): not scored. */
    four_concealed_pungs?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** four_concealed_pungs: a concealed kong is not a concealed pung (it breaks the hand). */
      no_concealed_kong?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** four_concealed_pungs: needs a self-draw (six-systems' hidden treasure). */
      self_draw_only?: boolean;
    }) | null;
    /** Fully concealed hand (門前清自摸). null (with extends): not scored. */
    fully_concealed?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Heavenly hand (天糊). null (with extends): not scored. */
    heavenly_hand?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Human hand (人和). null (with extends): not scored. */
    human_hand?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Jade dragon (綠一色). null (with extends): not scored. */
    jade_dragon?: ({
      /** jade_dragon, ruby_dragon, pearl_dragon: every set must be a pung or kong (the limit form). */
      all_pungs?: boolean;
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Win on a flower replacement after a kong (槓上補花). null (with extends): not scored. */
    kong_flower_replacement?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** kong_flower_replacement: a flower replacement then a kong replacement counts too, not only a kong replacement then a flower replacement. */
      either_order?: boolean;
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Last of its kind (絕章). null (with extends): not scored. */
    last_of_its_kind?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Last tile (海底撈月). null (with extends): not scored. */
    last_tile?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** last_tile: the discard after the last wall tile counts, not only the drawn last tile. */
      on_discard?: boolean;
    }) | null;
    /** Melded hand (全求人). null (with extends): not scored. */
    melded_hand?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** melded_hand: the winning discard completes the pair (false: it may complete the fourth set, claimed with it). */
      pair_wait_only?: boolean;
      /** melded_hand: the last tile may be self-drawn (it then completes the pair), not only won on a discard. */
      self_draw_allowed?: boolean;
    }) | null;
    /** Mixed one suit (混一色). null (with extends): not scored. */
    mixed_one_suit?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Mixed terminals (混么九). null (with extends): not scored. */
    mixed_terminals?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** mixed_terminals: seven pairs of terminals and honours score it too. */
      on_seven_pairs?: boolean;
      /** mixed_terminals: thirteen orphans scores it too. */
      on_thirteen_orphans?: boolean;
    }) | null;
    /** Moon from the bottom of the sea (一筒摸月). null (with extends): not scored. */
    moon_from_the_bottom?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Nine gates (九子連環). null (with extends): not scored. */
    nine_gates?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** nine_gates: only on the nine-sided wait (the thirteen tiles before the win are 1112345678999). */
      pure_only?: boolean;
      /** nine_gates: also with a declared kong of the suit (1111 or 9999), the tiles together 1112345678999 plus one. */
      with_kong?: boolean;
    }) | null;
    /** No flowers (無花). null (with extends): not scored. */
    no_flowers?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Pearl dragon (白一色). null (with extends): not scored. */
    pearl_dragon?: ({
      /** jade_dragon, ruby_dragon, pearl_dragon: every set must be a pung or kong (the limit form). */
      all_pungs?: boolean;
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Plum blossom on the roof (五筒開花). null (with extends): not scored. */
    plum_blossom_on_the_roof?: ({
      /** plum_blossom_on_the_roof: a flower replacement counts, not only a kong replacement. */
      any_replacement?: boolean;
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Prevailing flower (圈花). null (with extends): not scored. */
    prevailing_flower?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Pure one suit (清一色). null (with extends): not scored. */
    pure_one_suit?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Win on a replacement tile (槓上開花). null (with extends): not scored. */
    replacement_tile?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** replacement_tile: a flower replacement counts, not only a kong replacement. */
      on_flower_replacement?: boolean;
    }) | null;
    /** Robbing the kong (搶槓). null (with extends): not scored. */
    robbing_kong?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Round wind pung (圈風). null (with extends): not scored. */
    round_wind?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Ruby dragon (紅一色). null (with extends): not scored. */
    ruby_dragon?: ({
      /** jade_dragon, ruby_dragon, pearl_dragon: every set must be a pung or kong (the limit form). */
      all_pungs?: boolean;
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Seat flower (正花). null (with extends): not scored. */
    seat_flower?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Seat wind pung (門風). null (with extends): not scored. */
    seat_wind?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Self-drawn win (自摸). null (with extends): not scored. */
    self_draw?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Seven flowers (小花糊). null (with extends): not scored. */
    seven_flowers?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** seven_flowers, eight_flowers: a flower win on this count also scores the self-draw line and the replacement tile's line (where a flower replacement scores it). */
      scores_the_draw?: boolean;
    }) | null;
    /** Seven pairs (七對子). null (with extends): not scored. */
    seven_pairs?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** seven_pairs: four of a kind held concealed counts as two pairs. */
      four_as_two_pairs?: boolean;
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Small four winds (小四喜). null (with extends): not scored. */
    small_four_winds?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Small three dragons (小三元). null (with extends): not scored. */
    small_three_dragons?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Thirteen orphans (十三么). null (with extends): not scored. */
    thirteen_orphans?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
      /** thirteen_orphans: only on the thirteen-sided wait (the winning tile makes the pair). */
      thirteen_sided_only?: boolean;
    }) | null;
    /** Thirteen orphans on the thirteen-sided wait (十三么十三面). null (with extends): not scored. */
    thirteen_sided_orphans?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
    /** Voided suit (缺一門). null (with extends): not scored. */
    voided_suit?: ({
      /** Lines this pattern includes or replaces: when it scores, they do not. */
      contains?: PatternId[];
      /** A whole number of faan (ordinary faan that stack), or "limit" (a limit pattern worth the ruleset's limit_faan). */
      faan?: number | "limit";
      /** The guide's own wording. */
      guide_name?: string;
      /** The guide's wording when won on a discard. */
      guide_name_on_discard?: string;
      /** true with a number: a limit pattern worth that number. */
      limit?: boolean;
      /** Stacking note shown in the chart. */
      note?: string;
    }) | null;
  };
  payment?: {
    discard: {
      /** The discarder pays this times B. */
      discarder: number;
      /** Each of the two others pays this times B. */
      others: number;
    };
    robbing_kong: "as_discard" | "adder_pays_all";
    /** Each of the three others pays this times B. */
    self_draw: number;
  };
  /** curve, or table (base points for 0, 1, ... faan, at least up to the limit). */
  points?: {
    curve?: "full_spicy" | "half_spicy" | "table" | null;
    /** Every faan beyond the table's end scores its last entry. */
    extend_last?: boolean | null;
    table?: number[] | null;
  };
  source?: string[];
  summary?: string;
  table?: {
    co_winners_pay?: boolean;
    dealer_keeps_on_draw: boolean;
    dealer_keeps_on_win: boolean;
    dealer_multiplier: number;
    /** The false win's penalty: `minimum` (the offender pays each of the three what a self-drawn win at the minimum would pay that player), `limit` (a self-drawn limit hand, 賠三家滿糊), `{"faan": N}` (a self-drawn win of N faan, 0 to 255) or `{"points": P}` (P points to each, 1 to 2^40). */
    false_win?: "minimum" | "limit" | ({
      faan: number;
    }) | ({
      points: number;
    });
    liable_discard: "as_usual" | "pays_all" | "liable_pays";
    multiple_winners: "all" | "head_bump";
    stake?: number | null;
  };
  version?: number;
};

/** GET /v1/rulesets. */
export type RulesetList = {
  rulesets: RulesetSummary[];
};

/** A built-in ruleset's id, or a ruleset document (its JSON Schema: GET /v1/rulesets/schema). Problems of a document are 422s pointing under `/ruleset/...`. */
export type RulesetRef = string | RulesetDocument;

/** A ruleset in the list. */
export type RulesetSummary = {
  bonus_tiles: boolean;
  id: string;
  limit: number;
  min_faan: number;
  name: string;
  /** The name in Traditional Chinese (`name` for a document that gives none). */
  name_zh: string;
  /** The guide file(s) it comes from. */
  source: string[];
  summary: string;
  version: number;
};

/** `"all"`, or a list of rulesets: ids or ruleset documents. */
export type RulesetsDto = RulesetRef[] | "all";

/** POST /v1/score: a hand, the circumstances of the win and a ruleset. */
export type ScoreRequest = {
  context: ContextDto;
  hand: HandDto;
  house_rules?: null | HouseRulesDto;
  /** A ruleset id (GET /v1/rulesets lists them) or a ruleset document. */
  ruleset: RulesetRef;
};

/** The score of a hand (POST /v1/score, 200). */
export type ScoreResponse = {
  base_points: number;
  /** Index of the reading that counts. */
  chosen: number;
  decompositions: Decomposition[];
  /** The chosen reading's form. */
  form: string;
  /** SHA-256 (hex) of the canonical form of the ruleset, house rules, validated hand and context; the cache key. */
  hand_hash: string;
  /** The faan cap of the ruleset (after house rules). */
  limit: number;
  limit_hand: boolean;
  /** The chosen reading's lines. */
  lines: LineDto[];
  meets_minimum: boolean;
  min_faan: number;
  /** Faan short of the minimum (0 when met). */
  missing_faan: number;
  money?: null | MoneyDto;
  payments: Payments;
  raw_faan: number;
  /** The ruleset's id (a document's own `id`). */
  ruleset: string;
  /** SHA-256 (hex) of the ruleset's canonical document, after `extends` and before house rules (`rulesets/README.md`, "Inline rulesets"). */
  ruleset_hash: string;
  total_faan: number;
  /** The winner's seat. */
  winner: WindDto;
};

/** One set of a reading, in detail. */
export type SetDto = {
  /** Counts as concealed (in hand or a concealed kong, and not completed by a discard). */
  concealed: boolean;
  /** Declared before the win. */
  declared: boolean;
  kind: string;
  /** MPSZ text: `234m`, `777z`, `1111s`. */
  tiles: string;
  /** Holds the winning tile in this reading. */
  winning: boolean;
};

/** POST /v1/settle: the winners of one discard under one ruleset. */
export type SettleRequest = {
  house_rules?: null | HouseRulesDto;
  /** A ruleset id (GET /v1/rulesets lists them) or a ruleset document. */
  ruleset: RulesetRef;
  /** One to three winners, each as in POST /v1/score. Two or more share one discard (or robbed kong): the same `win_by`, `discarder`, `round_wind` and winning tile, on different seats. */
  winners: WinnerDto[];
};

/** POST /v1/settle, 200. */
export type SettleResponse = {
  money?: null | MoneyDto;
  /** The payments of the paid winners summed, by seat (they sum to zero). */
  payments: Payments;
  /** One per winner, in request order; each one's own `payments` (paid or not). */
  results: SettledOut[];
  ruleset: string;
};

/** One winner of a settlement: scored from its tiles, or declared without them. */
export type SettledOut = SettledResult | DeclaredResult;

/** One winner's result: its score, as POST /v1/score answers it, and whether it is paid. */
export type SettledResult = ScoreResponse & {
  /** The discarder pays this winner: the hand meets the minimum and, under `head_bump`, it is the first winner in turn order after the discarder. */
  paid: boolean;
  /** `tiles`: scored from its hand. */
  source: "tiles";
};

/** Shanten in each form (0 ready, −1 complete; null where the ruleset does
 * not score the form or the hand has melds). */
export type ShantenDto = {
  best: number;
  seven_pairs?: number | null;
  standard: number;
  thirteen_orphans?: number | null;
};

export type StandingDto = {
  balance: number;
  player: string;
  /** 1 for the best; equal balances share a rank (1, 2, 2, 4). */
  rank: number;
};

/** A player's night in figures. */
export type StatsDto = {
  biggest?: null | BiggestDto;
  /** Hands in which this player's discard (or added kong) paid a winner, once a hand. */
  dealt_in: number;
  false_wins: number;
  /** Hands won and paid. */
  hands_won: number;
  /** The balance in money, where there is a stake or a chip rate. */
  money?: number | null;
  player: string;
  /** The player's balance in points. */
  points: number;
  self_draws: number;
  /** Paid wins on a discard or a robbed kong. */
  wins_on_discard: number;
};

/** A 412: the problem, with the current table. */
export type TableConflict = {
  detail: string;
  status: number;
  table: TableDoc;
  title: string;
  type: string;
};

/** `POST /v1/tables`: a ledger request (its `hands` may be empty or left
 * out) with a title and the group it belongs to. Each part of the ledger
 * request is kept as sent (the ledger reads it), which is why this is
 * read as raw parts and not as a `LedgerRequest`. */
export type TableCreateRequest = {
  group?: null | GroupRef;
  /** The hands so far (default none). */
  hands?: LedgerHandDto[] | null;
  house_rules?: null | HouseRulesDto;
  players: string[];
  ruleset: RulesetRef;
  start?: null | LedgerStartDto;
  /** 1 to 64 characters. */
  title?: string | null;
};

/** `POST /v1/tables`' answer: the key is shown this once. */
export type TableCreated = {
  id: string;
  /** The right to change the table: `Authorization: Bearer {key}`. */
  key: string;
  /** `/t/{id}#key={key}`: the scorer's page. */
  score_path: string;
  table: TableDoc;
  version: number;
  /** `/t/{id}`: the viewer's page. */
  view_path: string;
};

/** A shared table: the ledger request as stored and its answer. */
export type TableDoc = {
  /** RFC 3339, UTC. */
  created_at: string;
  /** 128 random bits, base64url. */
  id: string;
  ledger: LedgerResponse;
  request: LedgerRequest;
  title?: string | null;
  updated_at: string;
  /** The changes ever made (an undo moves it on too); the `ETag` is `"v{version}"`. */
  version: number;
};

/** A ruleset's `[table]` defaults (each is also a house rule). */
export type TableDto = {
  /** Several winners on one discard, under a payment where the other players pay too: one winner pays another's share (`false`: a winner never pays in a hand it won). */
  co_winners_pay: boolean;
  /** A match: the dealer deals again after a draw. */
  dealer_keeps_on_draw: boolean;
  /** A match: a winning dealer deals again. */
  dealer_keeps_on_win: boolean;
  /** Every payment between the dealer (East) and another seat is multiplied by it. */
  dealer_multiplier: number;
  /** The false win's penalty (`minimum`, `limit`, `{"faan": N}` or `{"points": P}`). */
  false_win: FalseWinDto;
  liable_discard: LiableDiscardDto;
  multiple_winners: MultipleWinnersDto;
  /** Money per point; absent: none (the ruleset's own chip rate, if any). */
  stake?: number | null;
};

/** One payment of the settling up, in points. */
export type TransferDto = {
  amount: number;
  from: string;
  to: string;
};

/** The last hand taken back: the `undo` event's data, and the answer to an
 * undo with `Prefer: return=minimal`. Applied to the `TABLE` of the
 * version before: `request.hands` and `ledger.hands` keep their first
 * `hands`, the rest of `ledger` becomes `ledger`. */
export type UndoChange = {
  /** The hands left. */
  hands: number;
  /** The ledger's answer without its `hands`. */
  ledger: Record<string, unknown>;
  updated_at: string;
  version: number;
};

/** POST /v1/rulesets/validate: a ruleset (an id or a document) and house
 * rules to check against it. */
export type ValidateRequest = {
  house_rules?: null | HouseRulesDto;
  ruleset: RulesetRef;
};

/** The circumstances that apply whatever the winning tile (no `win_by`, no `discarder`). */
export type WaitContextDto = {
  /** The win would be on the last wall tile (or the discard after it). */
  last_tile?: boolean;
  round_wind: WindDto;
  seat_wind: WindDto;
};

/** One tile that completes the hand. */
export type WaitDto = {
  discard?: null | WaitScore;
  self_draw?: null | WaitScore;
  tile: string;
  /** Copies not in the hand or its melds. */
  unseen: number;
};

/** The best evaluation of a win on one wait. */
export type WaitScore = {
  base_points: number;
  lines: LineDto[];
  meets_minimum: boolean;
  payments: Payments;
  total_faan: number;
};

/** POST /v1/waits: a hand one tile short (no `winning_tile`), and the seat. */
export type WaitsRequest = {
  context: WaitContextDto;
  /** 13 tiles plus one per kong, without `winning_tile`. */
  hand: HandDto;
  house_rules?: null | HouseRulesDto;
  /** A ruleset id (GET /v1/rulesets lists them) or a ruleset document. */
  ruleset: RulesetRef;
};

/** POST /v1/waits, 200. */
export type WaitsResponse = {
  ruleset: string;
  /** Every wait, in tile order (empty: the hand is not waiting). */
  waits: WaitDto[];
};

export type WinByDto = "self_draw" | "discard" | "robbing_kong";

/** A seat or a wind. */
export type WindDto = "east" | "south" | "west" | "north";

/** One winner: a hand and its context, exactly as POST /v1/score takes them, or what the table declared in place of the hand. */
export type WinnerDto = {
  context: ContextDto;
  declared?: null | DeclaredDto;
  hand?: null | HandDto;
};
