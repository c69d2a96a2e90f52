//! The scoring pipeline every entry point calls (HTTP handlers, the CLI):
//! read the request, resolve the ruleset and house rules, validate, key
//! (`hand_hash`), look up the cache, score, serialise. No HTTP here.
//!
//! ```text
//! request bytes ─► same bytes lately? (cache front) ─► hit: stored body
//!       │
//!       ▼
//! api::json::parse ─► resolve ─► core::hand::validate ─► key::key_hash ─► cache? ─► hit
//!                                                                  │
//!                                  core::evaluate::score_hand ◄────┘ miss
//!                                                  │
//!           render::score_json (= serde of api::ScoreResponse) ─► body (cached)
//! ```

pub mod cache;
pub mod key;
pub mod render;
mod sink;

use crate::api::json::parse_checked;
use crate::api::{
    self, ApiError, BatchRequest, CompareRequest, FalseWinRequest, FalseWinResponse, HouseRulesDto,
    LedgerRequest, LedgerResponse, RulesetsDto, ScoreRequest, ScoreResponse, SettleRequest,
    SettleResponse, SettledResult, WaitsRequest, WaitsResponse, WinnerDto,
};
use crate::core::hand::{Context, Hand, HandSpec};
use crate::core::ledger::{self, LedgerHandSpec};
use crate::core::table::{self, WinnerSpec};
use crate::core::{evaluate, hand, settle, ContextSpec, HouseRules, Registry, Ruleset, Score};
use bytes::Bytes;
use cache::ScoreCache;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Limits the pipeline enforces on what it reads (the body limits are the
/// transport's).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest JSON nesting accepted in a body.
    pub json_depth: usize,
    /// Most requests in one batch.
    pub batch: usize,
    /// Most hands in one ledger.
    pub ledger_hands: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            json_depth: 32,
            batch: 1000,
            ledger_hands: 2000,
        }
    }
}

/// Whether a score body came from the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheStatus {
    Hit,
    Miss,
}

impl CacheStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CacheStatus::Hit => "hit",
            CacheStatus::Miss => "miss",
        }
    }
}

/// Most tile digits in `hand.tiles` and most melds: far above any real hand
/// (18 tiles, 4 melds), low enough that no tile count can overflow later.
pub const MAX_TILE_DIGITS: usize = 32;
pub const MAX_MELDS: usize = 4;

/// The rulesets, the cache and the counts of hits and misses.
pub struct Service {
    registry: Arc<Registry>,
    cache: ScoreCache,
    limits: Limits,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// A ruleset looked up by id, with a request's house rules applied.
pub struct Resolved<'a> {
    /// The ruleset as built in (its id and version key the cache).
    pub base: &'a Arc<Ruleset>,
    pub house: HouseRules,
    /// The ruleset in force: `base`, or a copy with the house rules applied.
    pub ruleset: Cow<'a, Ruleset>,
}

/// A scored hand with everything its result body is made from.
pub struct Evaluated<'a> {
    pub resolved: Resolved<'a>,
    pub context: Context,
    pub score: Score,
    pub hand_hash: api::KeyHash,
}

impl<'a> Evaluated<'a> {
    /// The result as its wire view (`ruleset_id` as the client named it).
    pub fn response(&'a self, ruleset_id: &'a str) -> ScoreResponse<'a> {
        ScoreResponse::new(
            ruleset_id,
            &self.resolved.ruleset,
            &self.context,
            &self.score,
            self.hand_hash,
        )
    }
}

/// A settlement with everything its body is written from.
pub struct Settled<'a> {
    pub resolved: Resolved<'a>,
    pub settlement: table::Settlement,
    /// Each winner's validated context and `hand_hash`, in request order.
    pub keyed: Vec<(Context, api::KeyHash)>,
}

impl<'a> Settled<'a> {
    /// The answer as its wire view (`ruleset_id` as the client named it):
    /// the schema, and the oracle of `render::settle_json`.
    pub fn response(&'a self, ruleset_id: &'a str) -> SettleResponse<'a> {
        SettleResponse {
            ruleset: ruleset_id,
            results: self
                .settlement
                .results
                .iter()
                .zip(&self.keyed)
                .map(|(w, (context, hash))| SettledResult {
                    score: ScoreResponse::new(
                        ruleset_id,
                        &self.resolved.ruleset,
                        context,
                        &w.score,
                        *hash,
                    ),
                    paid: w.paid,
                })
                .collect(),
            payments: self.settlement.payments.into(),
            money: api::money_of(&self.resolved.ruleset, self.settlement.money_cents),
        }
    }
}

/// A played match with everything its body is written from (`'r`: the
/// request the names borrow from).
pub struct Played<'a, 'r> {
    pub resolved: Resolved<'a>,
    pub ledger: ledger::Ledger,
    /// The players, in request order.
    pub names: [&'r str; ledger::PLAYERS],
}

impl<'a> Played<'a, '_> {
    /// The answer as its wire view: the schema, and the oracle of
    /// `render::ledger_json`.
    pub fn response(&'a self, ruleset_id: &'a str) -> LedgerResponse<'a> {
        LedgerResponse::new(
            ruleset_id,
            &self.resolved.ruleset,
            &self.names,
            &self.ledger,
        )
    }
}

/// Looks up `id` (a 404 pointing at `pointer` when unknown) and applies the house rules (422s).
pub fn resolve<'a>(
    registry: &'a Registry,
    id: &str,
    pointer: &str,
    house: &Option<HouseRulesDto>,
) -> Result<Resolved<'a>, ApiError> {
    let base = registry.get(id).ok_or_else(|| ApiError::UnknownRuleset {
        id: id.to_string(),
        pointer: pointer.into(),
    })?;
    let house = api::house_rules(house);
    let ruleset = if house.is_empty() {
        Cow::Borrowed(base.as_ref())
    } else {
        Cow::Owned(base.with_house_rules(&house)?)
    };
    Ok(Resolved {
        base,
        house,
        ruleset,
    })
}

/// Rejects hands of impossible size before the core sees them.
pub fn check_hand_size<S: AsRef<str>>(hand: &HandSpec<S>) -> Result<(), ApiError> {
    check_hand_size_at(hand, &"")
}

/// [`check_hand_size`] for a hand found at `{at}/hand` of the request
/// (`at` is written out only for an error).
pub fn check_hand_size_at<S: AsRef<str>>(
    hand: &HandSpec<S>,
    at: &dyn std::fmt::Display,
) -> Result<(), ApiError> {
    let digits = hand
        .tiles
        .as_ref()
        .bytes()
        .filter(u8::is_ascii_digit)
        .count();
    if digits > MAX_TILE_DIGITS {
        return Err(ApiError::field(
            format!("{at}/hand/tiles"),
            format!("{digits} tiles listed; a hand holds at most 18 (14 plus one per kong)"),
        ));
    }
    if hand.melds.len() > MAX_MELDS {
        return Err(ApiError::field(
            format!("{at}/hand/melds"),
            format!(
                "{} melds listed; a hand has at most {MAX_MELDS}",
                hand.melds.len()
            ),
        ));
    }
    Ok(())
}

/// The JSON body of a result: the one production serializer of a score
/// result (`render::score_json`, byte for byte what serde makes of
/// `api::ScoreResponse`; bench/load.md has the A/B that keeps it).
pub fn render(evaluated: &Evaluated<'_>, ruleset_id: &str) -> Bytes {
    let _span = tracing::debug_span!("render").entered();
    Bytes::from(render::score_json(
        ruleset_id,
        &evaluated.resolved.ruleset,
        &evaluated.context,
        &evaluated.score,
        &evaluated.hand_hash,
    ))
}

/// Checks the hand's size, validates it under the resolved ruleset and
/// keys it (`hand_hash`).
fn validate_and_key(
    resolved: &Resolved<'_>,
    hand: &HandSpec<&str>,
    ctx: &ContextSpec,
) -> Result<(Hand, Context, api::KeyHash), ApiError> {
    let (valid_hand, context) = {
        let _span = tracing::debug_span!("validate").entered();
        check_hand_size(hand)?;
        hand::validate(hand, ctx, evaluate::allowances(&resolved.ruleset))?
    };
    let hand_hash = key::key_hash(resolved.base, &resolved.house, &valid_hand, &context);
    Ok((valid_hand, context, hand_hash))
}

/// Scores a validated hand, keeping the parts its body is written from.
fn score_valid<'a>(
    resolved: Resolved<'a>,
    hand: &Hand,
    context: Context,
    hand_hash: api::KeyHash,
) -> Result<Evaluated<'a>, ApiError> {
    let score = {
        let _span = tracing::debug_span!("score").entered();
        evaluate::score_hand(&resolved.ruleset, hand, &context)?
    };
    Ok(Evaluated {
        resolved,
        context,
        score,
        hand_hash,
    })
}

impl Service {
    pub fn new(registry: Arc<Registry>, cache: ScoreCache, limits: Limits) -> Self {
        Service {
            registry,
            cache,
            limits,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The built-in rulesets, no cache: what the CLI uses.
    pub fn uncached(registry: Registry) -> Self {
        Service::new(
            Arc::new(registry),
            ScoreCache::new(0, 0, std::time::Duration::ZERO),
            Limits::default(),
        )
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub fn cache(&self) -> &ScoreCache {
        &self.cache
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Score results answered from the cache and scored, since start.
    pub fn cache_counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }

    fn count(&self, status: CacheStatus) {
        let c = match status {
            CacheStatus::Hit => &self.hits,
            CacheStatus::Miss => &self.misses,
        };
        c.fetch_add(1, Ordering::Relaxed);
    }

    /// One `POST /v1/score` body (or batch item): the result body.
    pub fn score_body(&self, body: &[u8]) -> Result<(Bytes, CacheStatus), ApiError> {
        if let Some(hit) = self.cache.get_by_request(body) {
            self.count(CacheStatus::Hit);
            return Ok((hit, CacheStatus::Hit));
        }
        let request: ScoreRequest = {
            let _span = tracing::debug_span!("parse").entered();
            parse_checked(body, self.limits.json_depth)?
        };
        let (result, status) = self.score(&request)?;
        self.cache.remember_request(body, &result);
        Ok((result, status))
    }

    /// A parsed score request: the result body.
    pub fn score(&self, r: &ScoreRequest<'_>) -> Result<(Bytes, CacheStatus), ApiError> {
        self.score_spec(
            &r.ruleset,
            "/ruleset",
            &r.house_rules,
            &r.hand.to_core(),
            &r.context.to_core(),
        )
    }

    /// Validates, keys, looks up the cache, and scores on a miss.
    fn score_spec(
        &self,
        ruleset_id: &str,
        ruleset_pointer: &str,
        house: &Option<HouseRulesDto>,
        hand: &HandSpec<&str>,
        ctx: &ContextSpec,
    ) -> Result<(Bytes, CacheStatus), ApiError> {
        let resolved = resolve(&self.registry, ruleset_id, ruleset_pointer, house)?;
        let (valid_hand, context, hand_hash) = validate_and_key(&resolved, hand, ctx)?;
        if let Some(body) = self.cache.get(&hand_hash) {
            self.count(CacheStatus::Hit);
            return Ok((body, CacheStatus::Hit));
        }
        self.count(CacheStatus::Miss);
        let evaluated = score_valid(resolved, &valid_hand, context, hand_hash)?;
        let body = render(&evaluated, ruleset_id);
        self.cache.insert(hand_hash, body.clone());
        Ok((body, CacheStatus::Miss))
    }

    /// Scores a parsed request without the cache, keeping the parts (the CLI's table).
    pub fn evaluate<'s>(&'s self, r: &ScoreRequest<'_>) -> Result<Evaluated<'s>, ApiError> {
        let resolved = resolve(&self.registry, &r.ruleset, "/ruleset", &r.house_rules)?;
        let (valid_hand, context, hand_hash) =
            validate_and_key(&resolved, &r.hand.to_core(), &r.context.to_core())?;
        score_valid(resolved, &valid_hand, context, hand_hash)
    }

    /// `POST /v1/score/batch`: `{"results": [...]}`, one result body or
    /// problem per item, in order. Each item is read like a score body.
    pub fn batch(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let batch: BatchRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        if batch.requests.len() > self.limits.batch {
            return Err(ApiError::BatchTooLarge {
                got: batch.requests.len(),
                max: self.limits.batch,
            });
        }
        let mut out = Vec::with_capacity(64 + batch.requests.len() * 1024);
        out.extend_from_slice(b"{\"results\":[");
        for (i, item) in batch.requests.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            match self.score_body(item.get().as_bytes()) {
                Ok((body, _)) => out.extend_from_slice(&body),
                Err(e) => out.extend_from_slice(&e.to_json()),
            }
        }
        out.extend_from_slice(b"]}");
        Ok(out)
    }

    /// `POST /v1/compare`: `{"results": {id: result or problem}}`.
    pub fn compare(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: CompareRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let ids: Vec<(String, String)> = match &r.rulesets {
            RulesetsDto::Word(w) if w == "all" => self
                .registry
                .ids()
                .map(|id| (id.to_string(), "/rulesets".into()))
                .collect(),
            RulesetsDto::Word(w) => {
                return Err(ApiError::field(
                    "/rulesets",
                    format!("expected a list of ruleset ids or \"all\", got {w:?}"),
                ))
            }
            RulesetsDto::List(list) if list.is_empty() => {
                return Err(ApiError::field(
                    "/rulesets",
                    "give at least one ruleset id, or \"all\"",
                ))
            }
            RulesetsDto::List(list) => {
                let mut seen: Vec<(String, String)> = Vec::with_capacity(list.len());
                for (i, id) in list.iter().enumerate() {
                    if !seen.iter().any(|(s, _)| s == id) {
                        seen.push((id.clone(), format!("/rulesets/{i}")));
                    }
                }
                seen
            }
        };
        let (hand, context) = (r.hand.to_core(), r.context.to_core());
        let mut out = Vec::with_capacity(64 + ids.len() * 1024);
        out.extend_from_slice(b"{\"results\":{");
        for (i, (id, pointer)) in ids.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            // An id is a JSON string key: serde_json's escaping.
            let _ = serde_json::to_writer(&mut out, id);
            out.push(b':');
            match self.score_spec(id, pointer, &r.house_rules, &hand, &context) {
                Ok((body, _)) => out.extend_from_slice(&body),
                Err(e) => out.extend_from_slice(&e.to_json()),
            }
        }
        out.extend_from_slice(b"}}");
        Ok(out)
    }

    /// `POST /v1/waits`.
    pub fn waits(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: WaitsRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let ruleset = resolve(&self.registry, &r.ruleset, "/ruleset", &r.house_rules)?.ruleset;
        let hand = r.hand.to_core();
        check_hand_size(&hand)?;
        let found = crate::core::waits::waits(&ruleset, &hand, &r.context.to_core())?;
        Ok(to_json(&WaitsResponse::new(&r.ruleset, &found)))
    }

    /// `POST /v1/settle`: several winners on one discard, written by
    /// `render::settle_json` (each result the score writer's fields).
    pub fn settle(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: SettleRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let s = self.settle_request(&r)?;
        let results: Vec<render::SettledParts> = s
            .settlement
            .results
            .iter()
            .zip(&s.keyed)
            .map(|(w, (context, hash))| render::SettledParts {
                context,
                score: &w.score,
                hand_hash: hash,
                paid: w.paid,
            })
            .collect();
        Ok(render::settle_json(
            &r.ruleset,
            &s.resolved.ruleset,
            &results,
            s.settlement.payments,
            s.settlement.money_cents,
        ))
    }

    /// Settles a parsed request, keeping the parts its body is written
    /// from. The ruleset and house rules are resolved once; each winner is
    /// keyed (`hand_hash`) as score keys it, so one winner answers what
    /// score does.
    pub fn settle_request<'s>(&'s self, r: &SettleRequest<'_>) -> Result<Settled<'s>, ApiError> {
        let resolved = resolve(&self.registry, &r.ruleset, "/ruleset", &r.house_rules)?;
        let winners: Vec<WinnerSpec<&str>> = r.winners.iter().map(WinnerDto::to_core).collect();
        for (i, w) in winners.iter().enumerate() {
            check_hand_size_at(&w.hand, &format_args!("/winners/{i}"))?;
        }
        let settlement = table::settle_winners(&resolved.ruleset, &winners)?;
        // Each winner validated in `settle_winners`; again here for its key.
        let mut keyed = Vec::with_capacity(winners.len());
        for w in &winners {
            let (hand, context) =
                hand::validate(&w.hand, &w.context, evaluate::allowances(&resolved.ruleset))?;
            let hash = key::key_hash(resolved.base, &resolved.house, &hand, &context);
            keyed.push((context, hash));
        }
        Ok(Settled {
            resolved,
            settlement,
            keyed,
        })
    }

    /// `POST /v1/ledger`: a whole match, written by `render::ledger_json`.
    /// A bad hand fails it all.
    pub fn ledger(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: LedgerRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let p = self.ledger_request(&r)?;
        Ok(render::ledger_json(
            &r.ruleset,
            &p.resolved.ruleset,
            &p.names,
            &p.ledger,
        ))
    }

    /// Plays a parsed match, keeping the parts its body is written from.
    pub fn ledger_request<'s, 'r>(
        &'s self,
        r: &'r LedgerRequest<'_>,
    ) -> Result<Played<'s, 'r>, ApiError> {
        let resolved = resolve(&self.registry, &r.ruleset, "/ruleset", &r.house_rules)?;
        let spec = r.to_core()?;
        if spec.hands.len() <= self.limits.ledger_hands {
            for (h, hand) in spec.hands.iter().enumerate() {
                if let LedgerHandSpec::Win { winners } = hand {
                    for (i, w) in winners.iter().enumerate() {
                        check_hand_size_at(&w.hand, &format_args!("/hands/{h}/winners/{i}"))?;
                    }
                }
            }
        }
        let ledger = ledger::ledger(&resolved.ruleset, &spec, self.limits.ledger_hands)?;
        // The core checked there are four players.
        let names = std::array::from_fn(|p| spec.players.get(p).copied().unwrap_or_default());
        Ok(Played {
            resolved,
            ledger,
            names,
        })
    }

    /// `POST /v1/penalties/false-win`.
    pub fn false_win(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: FalseWinRequest = parse_checked(body, self.limits.json_depth)?;
        let ruleset = resolve(&self.registry, &r.ruleset, "/ruleset", &r.house_rules)?.ruleset;
        let offender = r.offender.into();
        let payments = settle::false_win(&ruleset, offender);
        Ok(to_json(&FalseWinResponse::new(
            &r.ruleset, &ruleset, offender, payments,
        )))
    }
}

/// A response body by serde. The API's types always serialise (every map
/// key is a string), so there is no error to report.
pub fn to_json<T: serde::Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}
