//! The pipeline's refusals as problems: each `ServiceError` becomes the
//! `ApiError` the core's error would, so a problem's code, status and
//! pointer do not depend on which stage refused.

use crate::api::ApiError;
use crate::service::ServiceError;

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::Rules(errs) => errs.into(),
            ServiceError::Score(e) => e.into(),
            ServiceError::Table(e) => e.into(),
            ServiceError::Overflow { what, pointer } => ApiError::overflow(what, pointer),
        }
    }
}
