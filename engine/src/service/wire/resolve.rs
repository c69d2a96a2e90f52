//! The resolve stage: a request's ruleset (an id, or a document read from
//! its own bytes and resolved once per distinct document) and its house
//! rules (`api::HouseRulesDto`, checked into `core::HouseRules`) become
//! the pipeline's `Resolved`. The only place house rules cross from the
//! wire into the pipeline.

use super::super::cache::Resolution;
use super::super::key::KeyBy;
use super::super::pipeline::Resolved;
use super::super::Service;
use crate::api::json::check_depth;
use crate::api::{self, ApiError, HouseRulesDto, RulesetRef};
use crate::core::ruleset::DocError;
use crate::core::Ruleset;
use std::sync::Arc;

impl Service {
    /// The ruleset a request names, before house rules: a built-in by id
    /// (a 404 at `pointer` when unknown), or a document resolved once per
    /// distinct document (its problems are 422s under `pointer`).
    pub(crate) fn ruleset(
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
    fn resolve_document(&self, bytes: &[u8]) -> Resolution {
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

    /// The resolve stage: [`Service::ruleset`] with the request's house
    /// rules checked and applied (422s under `/house_rules`).
    pub(crate) fn resolve(
        &self,
        r: &RulesetRef<'_>,
        pointer: &str,
        house: &Option<HouseRulesDto>,
    ) -> Result<Resolved, ApiError> {
        let base = self.ruleset(r, pointer)?;
        with_house_rules(base, house)
    }
}

/// `base` with a request's house rules checked and applied (422s under
/// `/house_rules`).
pub(super) fn with_house_rules(
    base: (Arc<Ruleset>, KeyBy),
    house: &Option<HouseRulesDto>,
) -> Result<Resolved, ApiError> {
    let house = api::house_rules(house)?;
    Ok(Resolved::new(base, house)?)
}
