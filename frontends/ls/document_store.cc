#include "document_store.h"

#include <algorithm>
#include <utility>

namespace keydecide::ls {

void DocumentStore::Touch(std::list<OpenDocument>::iterator it) {
  lru_.splice(lru_.begin(), lru_, it);
}

void DocumentStore::DropText(OpenDocument* d) {
  d->doc.Assign(std::string());
  d->scan.Reset();
  d->too_large = true;
  d->session.reset();
}

OpenDocument* DocumentStore::Open(std::string_view uri, std::string_view language_id,
                                  int64_t version, std::string text) {
  Close(uri);
  if (lru_.size() >= kMaxDocuments) {
    by_uri_.erase(lru_.back().uri);
    lru_.pop_back();
  }
  lru_.emplace_front();
  OpenDocument& d = lru_.front();
  d.uri = std::string(uri);
  d.language_id = std::string(language_id);
  d.version = version;
  by_uri_.emplace(d.uri, lru_.begin());
  Replace(&d, std::move(text));
  return &d;
}

OpenDocument* DocumentStore::Find(std::string_view uri) {
  const auto it = by_uri_.find(std::string(uri));
  if (it == by_uri_.end()) return nullptr;
  Touch(it->second);
  return &*it->second;
}

void DocumentStore::Close(std::string_view uri) {
  const auto it = by_uri_.find(std::string(uri));
  if (it == by_uri_.end()) return;
  lru_.erase(it->second);
  by_uri_.erase(it);
}

void DocumentStore::Change(OpenDocument* d, Position from, Position to, std::string_view text,
                           PositionEncoding encoding) {
  if (d->too_large) return;  // no text to apply it to: only a full change brings it back
  const size_t begin = d->doc.OffsetOf(from, encoding);
  const size_t end = std::max(begin, d->doc.OffsetOf(to, encoding));
  if (d->doc.text().size() - (end - begin) + text.size() > max_document_bytes_) {
    DropText(d);
    return;
  }
  if (begin < d->scan.pos + RegionScan::kLookahead) d->scan.Reset();
  const AppliedEdit edit = d->doc.Replace(from, to, text, encoding);
  if (d->session) d->session->OnEdit(edit, d->doc.text());
}

void DocumentStore::Replace(OpenDocument* d, std::string text) {
  if (text.size() > max_document_bytes_) {
    DropText(d);
    return;
  }
  const size_t old_size = d->doc.text().size();
  d->scan.Reset();
  d->doc.Assign(std::move(text));
  d->too_large = false;
  // As one edit of everything: the session starts again from SetContext.
  if (d->session) d->session->OnEdit({0, old_size, d->doc.text().size()}, d->doc.text());
}

void DocumentStore::TrimSessions() {
  size_t kept = 0;
  for (OpenDocument& d : lru_) {
    if (d.session && ++kept > kMaxSessions) d.session.reset();
  }
}

size_t DocumentStore::sessions() const {
  size_t n = 0;
  for (const OpenDocument& d : lru_) n += d.session != nullptr;
  return n;
}

}  // namespace keydecide::ls
