//! The faan engine as a WebAssembly module (`wasm32-unknown-unknown`).
//!
//! A plain interface, JSON bytes in and out, so that any host can call it
//! with nothing but the WebAssembly API (`web/pkg/faan.js` is one):
//!
//! - `faan_alloc(len) -> ptr` and `faan_free(ptr, len)`: the caller's
//!   buffer for a request, freed by the caller after the call;
//! - `faan_call(op, ptr, len) -> status`: answers the request as the
//!   server's endpoint does, and returns the HTTP status;
//! - `faan_out_ptr()`, `faan_out_len()`: the answer's bytes, valid until
//!   the next call.
//!
//! Every answer comes from the engine's `Service` methods the HTTP
//! handlers call, with the server's default limits, so the bytes agree.

mod route;

use faan_engine::api::ApiError;
use faan_engine::core::Registry;
use faan_engine::service::Service;
use std::cell::RefCell;
use std::sync::OnceLock;

pub use route::{respond, Op};

thread_local! {
    /// The last answer, read by the host through `faan_out_ptr`/`faan_out_len`.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The service: the built-in rulesets, no caches (moka's clock panics on
/// this target, and one page has no use for them).
pub fn service() -> Result<&'static Service, &'static str> {
    static SERVICE: OnceLock<Result<Service, String>> = OnceLock::new();
    SERVICE
        .get_or_init(|| {
            Registry::builtin()
                .map(Service::uncached)
                .map_err(|e| format!("{e:?}"))
        })
        .as_ref()
        .map_err(String::as_str)
}

/// A buffer of `len` bytes for the host to write a request into.
#[no_mangle]
pub extern "C" fn faan_alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len);
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Frees a buffer from [`faan_alloc`] of the same `len`.
///
/// # Safety
/// `ptr` came from `faan_alloc(len)` and is not used after this.
#[no_mangle]
pub unsafe extern "C" fn faan_free(ptr: *mut u8, len: usize) {
    if ptr.is_null() {
        return;
    }
    // SAFETY: the caller gives back a buffer `faan_alloc(len)` made: a
    // vector of capacity `len`, here with length 0 (bytes are plain data).
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
}

/// Answers `op` (an [`Op`] number) on the `len` bytes at `ptr`; the
/// answer's bytes are then at `faan_out_ptr()`.
///
/// # Safety
/// `ptr` points at `len` readable bytes (or `len` is 0).
#[no_mangle]
pub unsafe extern "C" fn faan_call(op: u32, ptr: *const u8, len: usize) -> u32 {
    let input: &[u8] = if len == 0 || ptr.is_null() {
        &[]
    } else {
        // SAFETY: the host wrote `len` bytes at `ptr` (a `faan_alloc`
        // buffer) and does not touch them during the call.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    };
    let (status, body) = call(op, input);
    OUT.with(|o| *o.borrow_mut() = body);
    u32::from(status)
}

/// The last answer's first byte.
#[no_mangle]
pub extern "C" fn faan_out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

/// The last answer's length in bytes.
#[no_mangle]
pub extern "C" fn faan_out_len() -> usize {
    OUT.with(|o| o.borrow().len())
}

/// The answer to `op` on `input`: its status and body.
pub fn call(op: u32, input: &[u8]) -> (u16, Vec<u8>) {
    let s = match service() {
        Ok(s) => s,
        // Not reached: the rulesets are compiled in and tested; said
        // plainly rather than trapped.
        Err(e) => {
            let problem = serde_json::json!({
                "type": "about:blank",
                "title": "The built-in rulesets did not load",
                "status": 500,
                "detail": e,
            });
            return (500, faan_engine::service::to_json(&problem));
        }
    };
    match Op::from_u32(op) {
        Some(Op::Respond) => respond(s, input),
        Some(op) => answer(op.run(s, input)),
        None => answer(Err(ApiError::NotFound {
            path: format!("operation {op}"),
        })),
    }
}

/// A body as the status and bytes the server sends: 200 and the body, or
/// the problem's status and document.
pub(crate) fn answer(r: Result<Vec<u8>, ApiError>) -> (u16, Vec<u8>) {
    match r {
        Ok(body) => (200, body),
        Err(e) => (e.status(), e.to_json()),
    }
}
