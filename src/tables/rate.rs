//! New tables (and groups) per client address and hour: a fixed window per
//! address, the windows in a bounded cache (an address pushed out by many
//! others starts a new window, which bounds memory whatever clients send).

use moka::sync::Cache;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The window.
pub const WINDOW: Duration = Duration::from_secs(3600);
/// Addresses remembered at once.
const ADDRESSES: u64 = 100_000;

pub struct RateLimit {
    per_window: u32,
    windows: Cache<IpAddr, Arc<Mutex<(Instant, u32)>>>,
}

impl RateLimit {
    pub fn new(per_window: u32) -> RateLimit {
        RateLimit {
            per_window,
            windows: Cache::builder()
                .max_capacity(ADDRESSES)
                .time_to_live(WINDOW)
                .build(),
        }
    }

    /// Counts one creation by `addr`: `Err(seconds to wait)` past the bound.
    pub fn take(&self, addr: IpAddr) -> Result<(), u64> {
        self.take_at(addr, Instant::now())
    }

    fn take_at(&self, addr: IpAddr, now: Instant) -> Result<(), u64> {
        let w = self
            .windows
            .get_with(addr, || Arc::new(Mutex::new((now, 0))));
        let mut w = w.lock().unwrap_or_else(|p| p.into_inner());
        if now.duration_since(w.0) >= WINDOW {
            *w = (now, 0);
        }
        if w.1 >= self.per_window {
            let left = WINDOW.saturating_sub(now.duration_since(w.0));
            return Err(left.as_secs().max(1));
        }
        w.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_third_of_two_an_hour_waits_out_the_window() {
        // Two an hour: the third, ten minutes into the window, is told to
        // wait the fifty minutes left (3,000 s); another address is not.
        let r = RateLimit::new(2);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let t0 = Instant::now();
        assert_eq!(r.take_at(a, t0), Ok(()));
        assert_eq!(r.take_at(a, t0), Ok(()));
        assert_eq!(r.take_at(a, t0 + Duration::from_secs(600)), Err(3000));
        assert_eq!(r.take_at(b, t0 + Duration::from_secs(600)), Ok(()));
        // A new window an hour on.
        assert_eq!(r.take_at(a, t0 + WINDOW), Ok(()));
    }
}
