//! The transport's seam: where datagrams go in and out. A server and a connected
//! client read and write through a [`Wire`]: a UDP socket in the product
//! ([`Udp`]), an in-process hub in the tests (`Hub`, under `cfg(test)`), so the
//! server's rules run tick by tick against real clients' packets with no socket and
//! no wall clock.

use std::io;
use std::net::{SocketAddr, UdpSocket};

/// Datagrams in and out, never blocking.
pub(crate) trait Wire: Send {
    /// Sends `payload` to `to`; a datagram may be lost, so errors are not reported.
    fn send(&mut self, payload: &[u8], to: SocketAddr);
    /// The next datagram that arrived, into `buf`: its length and sender, or `None`
    /// when nothing waits.
    fn receive(&mut self, buf: &mut [u8]) -> Option<(usize, SocketAddr)>;
    /// The address it is reached at.
    fn local_addr(&self) -> io::Result<SocketAddr>;
}

/// A UDP socket, made non-blocking.
pub(crate) struct Udp(UdpSocket);

impl Udp {
    pub(crate) fn new(socket: UdpSocket) -> io::Result<Self> {
        socket.set_nonblocking(true)?;
        Ok(Self(socket))
    }
}

impl Wire for Udp {
    fn send(&mut self, payload: &[u8], to: SocketAddr) {
        let _ = self.0.send_to(payload, to);
    }

    fn receive(&mut self, buf: &mut [u8]) -> Option<(usize, SocketAddr)> {
        loop {
            match self.0.recv_from(buf) {
                Ok(got) => return Some(got),
                // An ICMP error for a packet sent earlier: nothing to read in it.
                Err(e)
                    if !matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) => {}
                Err(_) => return None,
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.0.local_addr()
    }
}

#[cfg(test)]
pub(crate) use hub::Hub;

#[cfg(test)]
mod hub {
    use std::collections::{HashMap, HashSet, VecDeque};
    use std::io;
    use std::net::SocketAddr;
    use std::sync::{Arc, Mutex};

    use super::Wire;

    /// Datagrams waiting at each address, and the addresses cut off.
    #[derive(Default)]
    struct Queues {
        waiting: HashMap<SocketAddr, VecDeque<(Vec<u8>, SocketAddr)>>,
        cut: HashSet<SocketAddr>,
    }

    /// A network in one process: a datagram sent to an address waits there until
    /// that address's wire reads it, in order; an address cut off loses what it
    /// sends and what is sent to it.
    #[derive(Clone, Default)]
    pub(crate) struct Hub(Arc<Mutex<Queues>>);

    /// One address on a [`Hub`].
    pub(crate) struct HubWire {
        hub: Hub,
        at: SocketAddr,
    }

    impl Hub {
        /// A wire at `at`.
        pub(crate) fn wire(&self, at: SocketAddr) -> HubWire {
            self.queues().waiting.entry(at).or_default();
            HubWire {
                hub: self.clone(),
                at,
            }
        }

        /// Cuts `at` off (`true`) or joins it again.
        pub(crate) fn cut(&self, at: SocketAddr, cut: bool) {
            let mut q = self.queues();
            if cut {
                q.cut.insert(at);
            } else {
                q.cut.remove(&at);
            }
        }

        /// Datagrams waiting to be read at `at`.
        pub(crate) fn waiting(&self, at: SocketAddr) -> usize {
            self.queues().waiting.get(&at).map_or(0, VecDeque::len)
        }

        /// Sends `payload` to `to` as if from `from` (no wire needed: a flood).
        pub(crate) fn send(&self, payload: &[u8], from: SocketAddr, to: SocketAddr) {
            let mut q = self.queues();
            if q.cut.contains(&from) || q.cut.contains(&to) {
                return;
            }
            if let Some(w) = q.waiting.get_mut(&to) {
                w.push_back((payload.to_vec(), from));
            }
        }

        /// Takes what waits at `at` (what a flood's sender is answered).
        pub(crate) fn take(&self, at: SocketAddr) -> Vec<(Vec<u8>, SocketAddr)> {
            self.queues()
                .waiting
                .get_mut(&at)
                .map(|w| w.drain(..).collect())
                .unwrap_or_default()
        }

        fn queues(&self) -> std::sync::MutexGuard<'_, Queues> {
            self.0.lock().unwrap_or_else(|e| e.into_inner())
        }
    }

    impl Wire for HubWire {
        fn send(&mut self, payload: &[u8], to: SocketAddr) {
            self.hub.send(payload, self.at, to);
        }

        fn receive(&mut self, buf: &mut [u8]) -> Option<(usize, SocketAddr)> {
            let (bytes, from) = self.hub.queues().waiting.get_mut(&self.at)?.pop_front()?;
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Some((n, from))
        }

        fn local_addr(&self) -> io::Result<SocketAddr> {
            Ok(self.at)
        }
    }
}
