//! The server's end of the protocol's framing on standard input and output: `Content-Length`
//! headers, then a JSON-RPC message. The editor is trusted to frame its messages, but nothing
//! it sends may end the server: a header block that cannot be read, a length beyond
//! [`MAX_MESSAGE`] (`Content-Length: 10000000000000` made `lsp-server`'s own reader allocate
//! it, and abort), a body that is not JSON or not a message. Such a frame is skipped (the
//! reader finds the next `Content-Length:` header), said in the editor's log, and a request
//! whose id can be read is answered with the protocol's error.

use std::io::{BufRead, Read, Write};

use lsp_server::{Connection, ErrorCode, Message, RequestId, Response};
use serde_json::Value;

/// The longest message read (a document's whole text travels in one).
pub const MAX_MESSAGE: usize = 128 << 20;

/// The longest header line, and the most header lines of one message.
const MAX_HEADER_LINE: usize = 8 << 10;
const MAX_HEADERS: usize = 32;

/// What one frame of the input is.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// A request or notification that is JSON but not a message of the protocol: answered
    /// with this error when it has an id.
    Invalid(Option<RequestId>, String),
    /// Skipped: why.
    Skipped(String),
}

/// Reads the next frame; `None` at the end of the input.
pub fn read_frame(r: &mut impl BufRead) -> Option<Frame> {
    let length = match read_headers(r)? {
        Ok(n) => n,
        Err(why) => {
            resync(r);
            return Some(Frame::Skipped(why));
        }
    };
    let mut body = Vec::new();
    let got = r.take(length as u64).read_to_end(&mut body).ok()?;
    if got < length {
        return Some(Frame::Skipped(format!(
            "the input ended {} bytes into a message of {length}",
            got
        )));
    }
    Some(parse_body(&body))
}

/// A message's body as a frame.
pub fn parse_body(body: &[u8]) -> Frame {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return Frame::Skipped(format!("a message that is not JSON ({e})")),
    };
    let id = value.get("id").and_then(|id| {
        serde_json::from_value::<RequestId>(id.clone())
            .ok()
            .filter(|_| value.get("method").is_some())
    });
    match serde_json::from_value::<Message>(value) {
        Ok(m) => Frame::Message(m),
        Err(e) => Frame::Invalid(id, format!("not a message of the protocol: {e}")),
    }
}

/// The headers of the next message: its length, or why it cannot be read (`None`: the input
/// ended).
fn read_headers(r: &mut impl BufRead) -> Option<Result<usize, String>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut lines = 0;
    loop {
        let mut line = Vec::new();
        let n = r
            .take(MAX_HEADER_LINE as u64)
            .read_until(b'\n', &mut line)
            .ok()?;
        if n == 0 {
            return None;
        }
        if line.last() != Some(&b'\n') && n >= MAX_HEADER_LINE {
            return Some(Err(format!(
                "a header line longer than {MAX_HEADER_LINE} bytes"
            )));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if lines == 0 {
                // Blank lines between messages.
                continue;
            }
            break;
        }
        lines += 1;
        if lines > MAX_HEADERS {
            return Some(Err(format!("more than {MAX_HEADERS} header lines")));
        }
        let Some((name, value)) = text.split_once(':') else {
            return Some(Err(format!("a header line without a name: {:.80}", text)));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            length = Some(match value.trim().parse::<u64>() {
                Ok(n) if n <= MAX_MESSAGE as u64 => Ok(n as usize),
                Ok(n) => Err(format!(
                    "a message of {n} bytes, beyond the {MAX_MESSAGE} bytes read"
                )),
                Err(_) => Err(format!(
                    "an unreadable Content-Length: {:.40}",
                    value.trim()
                )),
            });
        }
    }
    Some(length.unwrap_or_else(|| Err("a message without Content-Length".to_string())))
}

/// Skips the input up to the next `Content-Length:` header (left unread) or its end.
fn resync(r: &mut impl BufRead) {
    const MARK: &[u8] = b"content-length:";
    loop {
        let Ok(buf) = r.fill_buf() else { return };
        if buf.is_empty() {
            return;
        }
        let lower: Vec<u8> = buf.iter().map(u8::to_ascii_lowercase).collect();
        if let Some(i) = lower.windows(MARK.len()).position(|w| w == MARK) {
            r.consume(i);
            return;
        }
        // Keep the end, which may hold the start of the header.
        let keep = (MARK.len() - 1).min(buf.len());
        let drop = buf.len() - keep;
        if drop == 0 {
            // Fewer bytes than the header's length are buffered: read on one by one.
            r.consume(1);
        } else {
            r.consume(drop);
        }
    }
}

/// The error response to a request that cannot be handled, by the id it has.
pub fn invalid_request(id: RequestId, why: String) -> Message {
    Message::Response(Response::new_err(id, ErrorCode::InvalidRequest as i32, why))
}

/// A line in the editor's log about a skipped frame.
pub fn skipped_note(why: &str) -> Message {
    let params = lsp_types::LogMessageParams {
        typ: lsp_types::MessageType::ERROR,
        message: format!("yttlint: skipped a message from the editor: {why}"),
    };
    Message::Notification(lsp_server::Notification::new(
        "window/logMessage".to_string(),
        params,
    ))
}

/// The threads that read standard input and write standard output.
pub struct Threads {
    reader: std::thread::JoinHandle<()>,
    writer: std::thread::JoinHandle<()>,
}

impl Threads {
    /// Waits for the writer (it ends once the server drops its side); the reader ends with the
    /// input (it is not waited for: the editor may keep standard input open).
    pub fn join(self) {
        let _ = self.writer.join();
        drop(self.reader);
    }
}

/// The server's connection on standard input and output, framed as above.
pub fn stdio() -> (Connection, Threads) {
    let (server, client) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = client;
    let answers = to_server.clone();
    let reader = std::thread::Builder::new()
        .name("yttlint-lsp-read".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            while let Some(frame) = read_frame(&mut input) {
                let exit = matches!(&frame, Frame::Message(Message::Notification(n)) if n.method == "exit");
                let sent = match frame {
                    Frame::Message(m) => to_server.send(m).is_ok(),
                    // Told to the editor through the server's own output.
                    Frame::Invalid(Some(id), why) => {
                        let _ = answers.send(Message::Notification(lsp_server::Notification::new(
                            ANSWER.to_string(),
                            invalid_request(id, why),
                        )));
                        true
                    }
                    Frame::Invalid(None, why) | Frame::Skipped(why) => {
                        let _ = answers.send(Message::Notification(lsp_server::Notification::new(
                            ANSWER.to_string(),
                            skipped_note(&why),
                        )));
                        true
                    }
                };
                if !sent || exit {
                    break;
                }
            }
        });
    let writer = std::thread::Builder::new()
        .name("yttlint-lsp-write".into())
        .spawn(move || {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            for m in from_server {
                if m.write(&mut out).and_then(|()| out.flush()).is_err() {
                    break;
                }
            }
        });
    match (reader, writer) {
        (Ok(reader), Ok(writer)) => (server, Threads { reader, writer }),
        _ => {
            // Without its threads the server cannot speak: it sees its input end at once.
            let (server, _) = Connection::memory();
            let idle = || std::thread::spawn(|| {});
            (
                server,
                Threads {
                    reader: idle(),
                    writer: idle(),
                },
            )
        }
    }
}

/// The method of the internal notification that carries a message the reader wants written
/// back to the editor (the main loop unwraps it; it never reaches the editor as such).
pub const ANSWER: &str = "$/yttlint/answer";

/// The message an [`ANSWER`] notification carries.
pub fn answer_of(n: &lsp_server::Notification) -> Option<Message> {
    (n.method == ANSWER)
        .then(|| serde_json::from_value(n.params.clone()).ok())
        .flatten()
}

/// Writes `message` framed (tests and the fuzz target frame their input with it).
pub fn write_framed(out: &mut impl Write, body: &[u8]) -> std::io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n", body.len())?;
    out.write_all(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut r = std::io::BufReader::new(input);
        let mut out = Vec::new();
        while let Some(f) = read_frame(&mut r) {
            out.push(match f {
                Frame::Message(Message::Request(r)) => format!("request {}", r.method),
                Frame::Message(Message::Notification(n)) => format!("note {}", n.method),
                Frame::Message(Message::Response(_)) => "response".to_string(),
                Frame::Invalid(id, _) => format!("invalid {id:?}"),
                Frame::Skipped(why) => format!("skipped: {why}"),
            });
        }
        out
    }

    fn framed(body: &str) -> Vec<u8> {
        let mut out = Vec::new();
        write_framed(&mut out, body.as_bytes()).unwrap();
        out
    }

    #[test]
    fn absurd_lengths_and_garbage_are_skipped_and_reading_goes_on() {
        let hover = r#"{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}"#;
        let mut input = b"Content-Length: 10000000000000\r\n\r\n{\"jsonrpc\"".to_vec();
        input.extend(b"garbage\r\nno header here\r\n\r\n");
        input.extend(framed(hover));
        input.extend(b"Content-Length: x\r\n\r\n");
        input.extend(framed("{not json"));
        input.extend(framed(r#"{"jsonrpc":"2.0","id":7,"method":5}"#));
        input.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        let got = frames(&input);
        assert!(
            got[0].starts_with("skipped: a message of 10000000000000 bytes"),
            "{got:?}"
        );
        assert_eq!(got[1], "request textDocument/hover");
        assert!(
            got[2].starts_with("skipped: an unreadable Content-Length"),
            "{got:?}"
        );
        assert!(
            got[3].starts_with("skipped: a message that is not JSON"),
            "{got:?}"
        );
        assert!(
            got[4].starts_with("invalid Some"),
            "answered by its id: {got:?}"
        );
        assert_eq!(got[5], "note exit");
        assert_eq!(got.len(), 6);
    }

    #[test]
    fn a_request_that_is_not_a_message_is_answered_by_its_id() {
        let got = frames(&framed(
            r#"{"jsonrpc":"2.0","id":3,"method":"x","params":7}"#,
        ));
        // `params` may be any JSON value for lsp-server: this one is a message.
        assert_eq!(got, ["request x"]);
        match parse_body(br#"{"id":"a","method":"m","params":{},"result":[1,2,"#) {
            Frame::Skipped(_) => {}
            other => panic!("{other:?}"),
        }
        let long = vec![b'a'; MAX_HEADER_LINE + 10];
        assert!(frames(&long)[0].starts_with("skipped: a header line longer"));
        assert_eq!(frames(b"\r\n\r\n"), Vec::<String>::new());
        assert!(frames(b"Content-Length: 10\r\n\r\n{}")[0].starts_with("skipped: the input ended"));
    }
}
