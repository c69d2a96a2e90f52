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
mod patterns;
pub mod render;
mod sink;

use crate::api::json::{check_depth, parse_checked};
use crate::api::{
    self, AnalyzeRequest, ApiError, BatchRequest, CompareRequest, FalseWinRequest,
    FalseWinResponse, HouseRulesDto, LedgerRequest, LedgerResponse, RulesetDetail, RulesetRef,
    RulesetsDto, ScoreRequest, ScoreResponse, SettleRequest, SettleResponse, SettledResult,
    ValidateRequest, WaitsRequest, WaitsResponse, WinnerDto, MAX_COMPARE,
};
use crate::core::hand::{Context, FieldError, Hand, HandRule, HandSpec};
use crate::core::ledger::{self, LedgerHandSpec};
use crate::core::ruleset::DocError;
use crate::core::settle::Overflow;
use crate::core::table::{self, TableError, WinnerSpec};
use crate::core::{
    evaluate, hand, settle, ContextSpec, HouseRules, Registry, Ruleset, Score, ScoreError,
};
use bytes::Bytes;
use cache::{RulesetCache, ScoreCache};
use key::KeyBy;
use std::borrow::Cow;
use std::collections::HashSet;
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
    /// Most bytes of a ruleset document sent with a request.
    pub ruleset_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            json_depth: 32,
            batch: 1000,
            ledger_hands: 2000,
            ruleset_bytes: 32 * 1024,
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
    documents: RulesetCache,
    limits: Limits,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// A request's ruleset (a built-in, or a document resolved) with its house rules applied.
pub struct Resolved {
    /// The ruleset before house rules.
    pub base: Arc<Ruleset>,
    /// How the cache key names `base` (`key::KeyBy`).
    pub key_by: KeyBy,
    pub house: HouseRules,
    /// `base` with the house rules applied, when there are any.
    applied: Option<Ruleset>,
}

impl Resolved {
    /// The ruleset in force: `base`, or its copy with the house rules applied.
    pub fn ruleset(&self) -> &Ruleset {
        self.applied.as_ref().unwrap_or(&self.base)
    }
}

/// A scored hand with everything its result body is made from.
pub struct Evaluated {
    pub resolved: Resolved,
    pub context: Context,
    pub score: Score,
    pub hand_hash: api::KeyHash,
}

impl Evaluated {
    /// The result as its wire view.
    pub fn response(&self) -> ScoreResponse<'_> {
        let r = self.resolved.ruleset();
        ScoreResponse::new(r.id(), r, &self.context, &self.score, self.hand_hash)
    }
}

/// An analysed hand with the ruleset it was analysed under.
pub struct HandAnalysis {
    pub resolved: Resolved,
    pub analysis: crate::core::analysis::Analysis,
}

impl HandAnalysis {
    /// The answer as its wire view: what `POST /v1/analyze` answers.
    pub fn response(&self) -> api::AnalyzeResponse<'_> {
        api::AnalyzeResponse::new(self.resolved.ruleset().id(), &self.analysis)
    }
}

/// A settlement with everything its body is written from.
pub struct Settled {
    pub resolved: Resolved,
    pub settlement: table::Settlement,
    /// Each winner's validated context and `hand_hash`, in request order.
    pub keyed: Vec<(Context, api::KeyHash)>,
}

impl Settled {
    /// The answer as its wire view: the schema, and the oracle of
    /// `render::settle_json`.
    pub fn response(&self) -> SettleResponse<'_> {
        let ruleset = self.resolved.ruleset();
        SettleResponse {
            ruleset: ruleset.id(),
            results: self
                .settlement
                .results
                .iter()
                .zip(&self.keyed)
                .map(|(w, (context, hash))| SettledResult {
                    score: ScoreResponse::new(ruleset.id(), ruleset, context, &w.score, *hash),
                    paid: w.paid,
                })
                .collect(),
            payments: self.settlement.payments.into(),
            money: api::money_of(ruleset, self.settlement.money_cents),
        }
    }
}

/// A played match with everything its body is written from (`'r`: the
/// request the names borrow from).
pub struct Played<'r> {
    pub resolved: Resolved,
    pub ledger: ledger::Ledger,
    /// The players, in request order.
    pub names: [&'r str; ledger::PLAYERS],
}

impl Played<'_> {
    /// The answer as its wire view: the schema, and the oracle of
    /// `render::ledger_json`.
    pub fn response(&self) -> LedgerResponse<'_> {
        let ruleset = self.resolved.ruleset();
        LedgerResponse::new(ruleset.id(), ruleset, &self.names, &self.ledger)
    }
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
        return Err(FieldError::rule(
            format!("{at}/hand/tiles"),
            HandRule::TooManyTiles,
            vec![("count", digits.into()), ("max", MAX_TILE_DIGITS.into())],
        )
        .into());
    }
    if hand.melds.len() > MAX_MELDS {
        return Err(FieldError::rule(
            format!("{at}/hand/melds"),
            HandRule::TooManyMelds,
            vec![("got", hand.melds.len().into())],
        )
        .into());
    }
    Ok(())
}

/// The JSON body of a result: the one production serializer of a score
/// result (`render::score_json`, byte for byte what serde makes of
/// `api::ScoreResponse`; bench/load.md has the A/B that keeps it).
pub fn render(evaluated: &Evaluated) -> Bytes {
    let _span = tracing::debug_span!("render").entered();
    let ruleset = evaluated.resolved.ruleset();
    Bytes::from(render::score_json(
        ruleset.id(),
        ruleset,
        &evaluated.context,
        &evaluated.score,
        &evaluated.hand_hash,
    ))
}

/// Checks the hand's size, validates it under the resolved ruleset and
/// keys it (`hand_hash`).
fn validate_and_key(
    resolved: &Resolved,
    hand: &HandSpec<&str>,
    ctx: &ContextSpec,
) -> Result<(Hand, Context, api::KeyHash), ApiError> {
    let (valid_hand, context) = {
        let _span = tracing::debug_span!("validate").entered();
        check_hand_size(hand)?;
        hand::validate(hand, ctx, evaluate::allowances(resolved.ruleset()))?
    };
    let hand_hash = key::key_hash(
        &resolved.base,
        resolved.key_by,
        &resolved.house,
        &valid_hand,
        &context,
    );
    Ok((valid_hand, context, hand_hash))
}

/// Scores a validated hand, keeping the parts its body is written from
/// (`ruleset_at`: where the request gave its ruleset, for an overflow's pointer).
fn score_valid(
    resolved: Resolved,
    ruleset_at: &str,
    hand: &Hand,
    context: Context,
    hand_hash: api::KeyHash,
) -> Result<Evaluated, ApiError> {
    let score = {
        let _span = tracing::debug_span!("score").entered();
        match evaluate::score_hand(resolved.ruleset(), hand, &context) {
            Ok(s) => s,
            Err(ScoreError::Overflow(what)) => return Err(overflow(&resolved, ruleset_at, what)),
            Err(e) => return Err(e.into()),
        }
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
            documents: RulesetCache::new(),
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

    /// The ruleset a request names, before house rules: a built-in by id
    /// (a 404 at `pointer` when unknown), or a document resolved once per
    /// distinct document (its problems are 422s under `pointer`).
    pub fn ruleset(
        &self,
        r: &RulesetRef<'_>,
        pointer: &str,
    ) -> Result<(Arc<Ruleset>, KeyBy), ApiError> {
        match r {
            RulesetRef::Id(id) => self
                .registry
                .get(id)
                .map(|b| (Arc::clone(b), KeyBy::Id))
                .ok_or_else(|| ApiError::UnknownRuleset {
                    id: id.to_string(),
                    pointer: pointer.into(),
                }),
            RulesetRef::Document(raw) => {
                let bytes = raw.get().as_bytes();
                if bytes.len() > self.limits.ruleset_bytes {
                    return Err(ApiError::field(
                        pointer,
                        format!(
                            "the ruleset document is {} bytes; at most {} are accepted (--ruleset-bytes)",
                            bytes.len(),
                            self.limits.ruleset_bytes
                        ),
                    ));
                }
                self.documents
                    .get_or_resolve(bytes, || self.resolve_document(bytes))
                    .map_err(|errs| {
                        ApiError::invalid(
                            errs.iter()
                                .map(|e| {
                                    api::ProblemError::new(e.pointer(pointer), e.message.clone())
                                })
                                .collect(),
                        )
                    })
            }
        }
    }

    /// A document's ruleset (`core::ruleset::resolve_document`, `extends`
    /// over the registry's rulesets); the registry's own when it resolves
    /// to one of them exactly (then keyed by id, as a request naming it).
    #[cold]
    fn resolve_document(&self, bytes: &[u8]) -> cache::Resolution {
        let _span = tracing::debug_span!("resolve_document").entered();
        // The request's read skipped the document (a raw value) unchecked.
        if check_depth(bytes, self.limits.json_depth).is_err() {
            return Err(Arc::new(vec![DocError::new(
                vec![],
                format!(
                    "the ruleset document is nested deeper than {} levels",
                    self.limits.json_depth
                ),
            )]));
        }
        let doc = crate::core::ruleset::parse_document(bytes).map_err(|e| Arc::new(vec![e]))?;
        let r = crate::core::ruleset::resolve_document(doc, |id| {
            self.registry.get(id).map(|b| b.to_document())
        })
        .map_err(Arc::new)?;
        match self.registry.get(r.id()) {
            Some(b) if b.hash() == r.hash() => Ok((Arc::clone(b), KeyBy::Id)),
            // Answered as `"ruleset": "<id>"`, other rules would pass for the
            // built-in's (an id inherited through `extends` too).
            Some(_) => Err(Arc::new(vec![DocError::new(
                vec!["id".into()],
                format!(
                    "{:?} is a built-in ruleset's id, and this document's rules differ from it: give the document its own id",
                    r.id()
                ),
            )])),
            None => Ok((Arc::new(r), KeyBy::Hash)),
        }
    }

    /// [`Service::ruleset`] with the house rules applied (422s under `/house_rules`).
    pub fn resolve(
        &self,
        r: &RulesetRef<'_>,
        pointer: &str,
        house: &Option<HouseRulesDto>,
    ) -> Result<Resolved, ApiError> {
        let base = self.ruleset(r, pointer)?;
        with_house_rules(base, house)
    }

    /// A parsed score request: the result body.
    pub fn score(&self, r: &ScoreRequest<'_>) -> Result<(Bytes, CacheStatus), ApiError> {
        let base = self.ruleset(&r.ruleset, "/ruleset")?;
        self.score_spec(
            base,
            "/ruleset",
            &r.house_rules,
            &r.hand.to_core(),
            &r.context.to_core(),
        )
    }

    /// Validates, keys, looks up the cache, and scores on a miss.
    fn score_spec(
        &self,
        base: (Arc<Ruleset>, KeyBy),
        ruleset_at: &str,
        house: &Option<HouseRulesDto>,
        hand: &HandSpec<&str>,
        ctx: &ContextSpec,
    ) -> Result<(Bytes, CacheStatus), ApiError> {
        let resolved = with_house_rules(base, house)?;
        let (valid_hand, context, hand_hash) = validate_and_key(&resolved, hand, ctx)?;
        if let Some(body) = self.cache.get(&hand_hash) {
            self.count(CacheStatus::Hit);
            return Ok((body, CacheStatus::Hit));
        }
        self.count(CacheStatus::Miss);
        let evaluated = score_valid(resolved, ruleset_at, &valid_hand, context, hand_hash)?;
        let body = render(&evaluated);
        self.cache.insert(hand_hash, body.clone());
        Ok((body, CacheStatus::Miss))
    }

    /// Scores a parsed request without the cache, keeping the parts (the CLI's table).
    pub fn evaluate(&self, r: &ScoreRequest<'_>) -> Result<Evaluated, ApiError> {
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let (valid_hand, context, hand_hash) =
            validate_and_key(&resolved, &r.hand.to_core(), &r.context.to_core())?;
        score_valid(resolved, "/ruleset", &valid_hand, context, hand_hash)
    }

    /// `POST /v1/score/batch`: `{"results": [...]}`, one result body or
    /// problem per item, in order. Each item is read like a score body
    /// (an inline ruleset repeated across items is resolved once).
    pub fn batch(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        // The items are kept raw, so the whole body's depth is checked first.
        check_depth(body, self.limits.json_depth)?;
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

    /// `POST /v1/compare`: `{"results": {key: result or problem}}`. An id
    /// is its own key (a repeat is answered once); a document is keyed by
    /// its ruleset's id, or by its pointer (`/rulesets/<i>`) when that id
    /// is taken by another entry or the document does not resolve.
    pub fn compare(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: CompareRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let list: Vec<(RulesetRef<'_>, String)> = match &r.rulesets {
            RulesetsDto::Word(w) if w == "all" => self
                .registry
                .ids()
                .map(|id| (RulesetRef::Id(Cow::Borrowed(id)), "/rulesets".into()))
                .collect(),
            RulesetsDto::Word(w) => {
                return Err(ApiError::field(
                    "/rulesets",
                    format!("expected a list of ruleset ids or documents, or \"all\", got {w:?}"),
                ))
            }
            RulesetsDto::TooMany(n) => {
                return Err(ApiError::field(
                    "/rulesets",
                    format!("a compare names at most {MAX_COMPARE} rulesets, got {n}"),
                ))
            }
            RulesetsDto::List(list) if list.is_empty() => {
                return Err(ApiError::field(
                    "/rulesets",
                    "give at least one ruleset id or document, or \"all\"",
                ))
            }
            RulesetsDto::List(list) => list
                .iter()
                .enumerate()
                .map(|(i, r)| (r.clone(), format!("/rulesets/{i}")))
                .collect(),
        };
        // Sets, not lists: looking each entry up in a list was the square
        // of the entries (issue 22).
        let ids: HashSet<&str> = list.iter().filter_map(|(r, _)| r.id()).collect();
        let mut taken: HashSet<String> = HashSet::with_capacity(list.len());
        let mut keys: Vec<String> = Vec::with_capacity(list.len());
        let mut entries = Vec::with_capacity(list.len());
        for (r, pointer) in &list {
            let base = self.ruleset(r, pointer);
            let key = match (r, &base) {
                (RulesetRef::Id(id), _) => id.to_string(),
                (RulesetRef::Document(_), Ok((b, _)))
                    if !ids.contains(b.id()) && !taken.contains(b.id()) =>
                {
                    b.id().to_string()
                }
                (RulesetRef::Document(_), _) => pointer.clone(),
            };
            if taken.insert(key.clone()) {
                keys.push(key);
                entries.push((base, pointer.as_str()));
            }
        }
        let (hand, context) = (r.hand.to_core(), r.context.to_core());
        let mut out = Vec::with_capacity(64 + keys.len() * 1024);
        out.extend_from_slice(b"{\"results\":{");
        for (i, (key, (base, pointer))) in keys.iter().zip(entries).enumerate() {
            if i > 0 {
                out.push(b',');
            }
            // A key is a JSON string: serde_json's escaping.
            let _ = serde_json::to_writer(&mut out, key);
            out.push(b':');
            match base.and_then(|b| self.score_spec(b, pointer, &r.house_rules, &hand, &context)) {
                Ok((body, _)) => out.extend_from_slice(&body),
                Err(e) => out.extend_from_slice(&e.to_json()),
            }
        }
        out.extend_from_slice(b"}}");
        Ok(out)
    }

    /// `POST /v1/rulesets/validate`: the resolved chart (house rules
    /// applied, with `ruleset_hash`), or every problem.
    pub fn validate(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: ValidateRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        Ok(to_json(&RulesetDetail::from(resolved.ruleset())))
    }

    /// `POST /v1/waits`.
    pub fn waits(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: WaitsRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let ruleset = resolved.ruleset();
        let hand = r.hand.to_core();
        check_hand_size(&hand)?;
        let found = crate::core::waits::waits(ruleset, &hand, &r.context.to_core())?;
        Ok(to_json(&WaitsResponse::new(ruleset.id(), &found)))
    }

    /// `POST /v1/analyze`: a hand before the win (shanten, acceptance, each
    /// discard, and the chances where asked for).
    pub fn analyze(&self, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let r: AnalyzeRequest<'_> = parse_checked(body, self.limits.json_depth)?;
        Ok(to_json(&self.analyze_typed(&r)?.response()))
    }

    /// A parsed analyze request: the core's analysis with the ruleset it
    /// was made under (the CLI builds the request typed and calls this, so
    /// it never writes or re-reads a JSON body).
    pub fn analyze_typed(&self, r: &AnalyzeRequest<'_>) -> Result<HandAnalysis, ApiError> {
        let ask = match r.chances {
            Some(c) if !(1..=crate::core::chances::MAX_DRAWS).contains(&c.draws) => {
                return Err(ApiError::field(
                    "/chances/draws",
                    format!(
                        "draws is how many more tiles the player will draw: 1 to {}, got {}",
                        crate::core::chances::MAX_DRAWS,
                        c.draws
                    ),
                ))
            }
            Some(c) => Some(crate::core::analysis::Ask {
                draws: c.draws,
                discards: c.discards,
            }),
            None => None,
        };
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let hand = r.hand.to_core();
        check_hand_size(&hand)?;
        let analysis = crate::core::analysis::analyze(
            resolved.ruleset(),
            &hand,
            &r.context.to_core(),
            r.seen.as_deref(),
            ask,
        )?;
        Ok(HandAnalysis { resolved, analysis })
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
        let ruleset = s.resolved.ruleset();
        Ok(render::settle_json(
            ruleset.id(),
            ruleset,
            &results,
            s.settlement.payments,
            s.settlement.money_cents,
        ))
    }

    /// Settles a parsed request, keeping the parts its body is written
    /// from. The ruleset and house rules are resolved once; each winner is
    /// keyed (`hand_hash`) as score keys it, so one winner answers what
    /// score does.
    pub fn settle_request(&self, r: &SettleRequest<'_>) -> Result<Settled, ApiError> {
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let ruleset = resolved.ruleset();
        let winners: Vec<WinnerSpec<&str>> = r.winners.iter().map(WinnerDto::to_core).collect();
        for (i, w) in winners.iter().enumerate() {
            check_hand_size_at(&w.hand, &format_args!("/winners/{i}"))?;
        }
        let settlement = table::settle_winners(ruleset, &winners)
            .map_err(|e| table_error(&resolved, "/ruleset", e))?;
        // Each winner validated in `settle_winners`; again here for its key.
        let mut keyed = Vec::with_capacity(winners.len());
        for w in &winners {
            let (hand, context) =
                hand::validate(&w.hand, &w.context, evaluate::allowances(ruleset))?;
            let hash = key::key_hash(
                &resolved.base,
                resolved.key_by,
                &resolved.house,
                &hand,
                &context,
            );
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
        let ruleset = p.resolved.ruleset();
        Ok(render::ledger_json(
            ruleset.id(),
            ruleset,
            &p.names,
            &p.ledger,
        ))
    }

    /// Plays a parsed match, keeping the parts its body is written from.
    pub fn ledger_request<'r>(&self, r: &'r LedgerRequest<'_>) -> Result<Played<'r>, ApiError> {
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
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
        let ledger = ledger::ledger(resolved.ruleset(), &spec, self.limits.ledger_hands)
            .map_err(|e| table_error(&resolved, "/ruleset", e))?;
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
        let resolved = self.resolve(&r.ruleset, "/ruleset", &r.house_rules)?;
        let ruleset = resolved.ruleset();
        let offender = r.offender.into();
        let payments = settle::false_win(ruleset, offender);
        let cents = settle::money(ruleset, &payments)
            .map_err(|what| overflow(&resolved, "/ruleset", what))?;
        Ok(to_json(&FalseWinResponse::new(
            ruleset.id(),
            ruleset,
            offender,
            payments,
            cents,
        )))
    }
}

/// The 422 of a total or an amount too large to answer exactly, at what
/// set it: money at the stake (`/house_rules/stake` when the request sets
/// one or names a built-in ruleset; else the document's own stake or chip
/// rate under `ruleset_at`), a total at the pattern of its largest line (the
/// house rule that set its value, else the document's pattern; else the
/// house rules, which alone can push a built-in that far).
#[cold]
fn overflow(resolved: &Resolved, ruleset_at: &str, what: Overflow) -> ApiError {
    let house = &resolved.house;
    let document = resolved.key_by == KeyBy::Hash;
    let pointer = match what {
        Overflow::Money if house.stake.is_some() || !document => "/house_rules/stake".to_string(),
        Overflow::Money if resolved.ruleset().table().stake.is_some() => {
            format!("{ruleset_at}/table/stake")
        }
        Overflow::Money => format!("{ruleset_at}/money/usd_per_100_chips"),
        Overflow::Faan(p) | Overflow::BasePoints(p) => {
            if house.patterns.iter().any(|(k, _)| k == p.as_str()) {
                format!("/house_rules/patterns/{p}")
            } else if document {
                format!("{ruleset_at}/patterns/{p}")
            } else if house.limits_add.is_some() {
                "/house_rules/limits_add".to_string()
            } else {
                "/house_rules".to_string()
            }
        }
    };
    ApiError::overflow(what, pointer)
}

/// A settlement's or a ledger's error; an overflow the core did not place
/// (at a ledger hand) placed by [`overflow`].
fn table_error(resolved: &Resolved, ruleset_at: &str, e: TableError) -> ApiError {
    match e {
        TableError::Overflow {
            what,
            pointer: None,
        } => overflow(resolved, ruleset_at, what),
        e => e.into(),
    }
}

/// `base` with a request's house rules applied (422s under `/house_rules`).
fn with_house_rules(
    (base, key_by): (Arc<Ruleset>, KeyBy),
    house: &Option<HouseRulesDto>,
) -> Result<Resolved, ApiError> {
    let house = api::house_rules(house);
    let applied = if house.is_empty() {
        None
    } else {
        Some(base.with_house_rules(&house)?)
    };
    Ok(Resolved {
        base,
        key_by,
        house,
        applied,
    })
}

/// A response body by serde. The API's types always serialise (every map
/// key is a string), so there is no error to report.
pub fn to_json<T: serde::Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}
