//! The OpenAPI document, derived from the handlers and DTOs (utoipa).
//! Committed as `openapi/openapi.json`; regenerate it with
//! `cargo run -- openapi > openapi/openapi.json`. Serves itself
//! (`GET /openapi.json`): the document names the other handlers, so its own
//! handler is here rather than in `meta`, and the imports run one way.

use super::{meta, scoring, tables};
use crate::api::tables as api_tables;
use crate::api::*;
use crate::core::ruleset::{DiscardPayment, LiableDiscard, LimitsPay, MultipleWinners};
use crate::core::{MeldKind, Replacement, RobbedKong, WinBy, Wind};
use actix_web::HttpResponse;

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "faan",
        description = "Hong Kong mahjong scoring as a service: faan, base points and payments under the published rulesets built in. Errors are application/problem+json (RFC 9457) with a JSON Pointer per broken rule.",
        license(name = "MIT")
    ),
    paths(
        scoring::score,
        scoring::score_batch,
        scoring::compare,
        scoring::settle,
        scoring::ledger,
        scoring::waits,
        scoring::analyze,
        scoring::false_win,
        tables::create,
        tables::read,
        tables::append,
        tables::undo,
        tables::delete,
        tables::events::events,
        tables::create_group,
        tables::read_group,
        tables::delete_group,
        meta::list_patterns,
        meta::list_rulesets,
        meta::ruleset_schema,
        meta::validate_ruleset,
        meta::get_ruleset,
        openapi_json,
        meta::docs,
        meta::healthz,
        meta::readyz,
        meta::metrics,
    ),
    components(schemas(
        ScoreRequest, HandDto, MeldDto, MeldKind, ContextDto, WinBy, Wind, Replacement, RobbedKong,
        HouseRulesDto, PointsDto, CurveDto, RulesetsDto, DiscardPayment, BatchRequest, CompareRequest, FalseWinRequest,
        ScoreResponse, Decomposition, SetDto, LineDto, Payments, MoneyDto, MoneyPayments,
        BatchResponse, CompareResponse, FalseWinResponse, RulesetList, RulesetSummary, RulesetDetail,
        PatternDto, PointsDtoOut, PaymentDto, Health, Problem, ProblemError,
        WaitsRequest, WaitContextDto, WaitsResponse, WaitDto, WaitScore,
        AnalyzeRequest, AnalyzeResponse, analyze::ChancesRequest, analyze::ShantenDto, analyze::AcceptedTile,
        analyze::ChancesDto, analyze::DiscardDto, analyze::CompleteDto,
        MultipleWinners, LiableDiscard, LimitsPay, TableDto, FalseWinDto,
        SettleRequest, WinnerDto, DeclaredDto, SettleResponse, SettledResult, SettledOut, DeclaredResult,
        LedgerRequest, LedgerStartDto, HandResultDto, LedgerHandDto, LedgerWinnerDto, LedgerContextDto,
        LedgerResponse, LedgerHandOut, LedgerWinnerOut, NextDto, StandingDto, TransferDto,
        MoneyTransferDto, LedgerMoneyDto, StatsDto, BiggestDto,
        RulesetRef, RulesetDocument, ValidateRequest,
        PatternTable, PatternInfoDto, ConditionInfoDto,
        api_tables::TableCreateRequest, api_tables::GroupRef, api_tables::TableDoc, api_tables::TableCreated,
        api_tables::TableConflict, api_tables::GroupCreateRequest, api_tables::GroupCreated, api_tables::GroupDoc,
        api_tables::NightDoc, api_tables::GroupStatsDoc, api_tables::GroupBiggestDoc,
        api_tables::HandChange, api_tables::UndoChange,
    )),
    tags(
        (name = "scoring", description = "Score hands, batches and comparisons; several winners; whole matches; penalties"),
        (name = "tables", description = "Shared tables: a night kept by the server, followed live; groups of nights"),
        (name = "rulesets", description = "The rulesets and their charts"),
        (name = "meta", description = "Documentation, health and metrics"),
    )
)]
pub struct ApiDoc;

/// The document as pretty JSON (what `faan openapi` prints).
pub fn spec_json() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": {:?}}}", e.to_string()))
}

/// The document, built once per process.
pub fn cached() -> &'static str {
    static SPEC: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SPEC.get_or_init(spec_json)
}

/// The OpenAPI document of this API.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    responses((status = 200, description = "OpenAPI 3.1 document", content_type = "application/json", body = Object))
)]
pub async fn openapi_json(req: actix_web::HttpRequest) -> HttpResponse {
    variants().respond(&req, "application/json")
}

/// The document in each coding, compressed once per process.
pub fn variants() -> &'static super::compress::Variants {
    static CODED: std::sync::OnceLock<super::compress::Variants> = std::sync::OnceLock::new();
    CODED.get_or_init(|| super::compress::Variants::new(cached().as_bytes().into()))
}
