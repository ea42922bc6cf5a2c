// DocumentStore: the open documents, by URI, with bounded memory.
//
// At most kMaxDocuments documents are kept (the least recently used is forgotten beyond
// that: a later change to it is ignored and a completion in it answers nothing until the
// editor opens it again), each with at most max_document_bytes of text (a larger document is
// kept without its text, marked too_large, and served no completions), and at most
// kMaxSessions engine sessions (about 1 MB each for English), the least recently used
// dropped: its document's next completion starts from SetContext.
//
// Thread-safety: none.

#ifndef KEYDECIDE_FRONTENDS_LS_DOCUMENT_STORE_H_
#define KEYDECIDE_FRONTENDS_LS_DOCUMENT_STORE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "code_context.h"
#include "document.h"
#include "document_session.h"

namespace keydecide::ls {

struct OpenDocument {
  std::string uri;
  std::string language_id;
  int64_t version = 0;
  Document doc;
  bool too_large = false;                    // its text is not kept
  RegionScan scan;                           // the code/comment scanner's checkpoint
  std::unique_ptr<DocumentSession> session;  // made at its first completion
};

class DocumentStore {
 public:
  static constexpr size_t kMaxDocuments = 64;
  static constexpr size_t kMaxSessions = 8;
  static constexpr size_t kDefaultMaxDocumentBytes = 1u << 20;

  explicit DocumentStore(size_t max_document_bytes = kDefaultMaxDocumentBytes)
      : max_document_bytes_(max_document_bytes) {}

  // Opens (or reopens) `uri` with `text`. Returns the document, most recently used.
  OpenDocument* Open(std::string_view uri, std::string_view language_id, int64_t version,
                     std::string text);
  // The document, marked most recently used; null when not open (or forgotten).
  OpenDocument* Find(std::string_view uri);
  void Close(std::string_view uri);

  // Applies an incremental change; a change that would make the text longer than the cap
  // drops the text and marks the document too_large. Tells the document's session.
  void Change(OpenDocument* d, Position from, Position to, std::string_view text,
              PositionEncoding encoding);
  // Applies a full change (the whole text), which may also bring a too_large document back.
  void Replace(OpenDocument* d, std::string text);

  // Drops the sessions of all but the kMaxSessions most recently used documents.
  void TrimSessions();

  size_t size() const { return by_uri_.size(); }
  size_t sessions() const;
  size_t max_document_bytes() const { return max_document_bytes_; }

 private:
  void Touch(std::list<OpenDocument>::iterator it);
  void DropText(OpenDocument* d);

  size_t max_document_bytes_;
  std::list<OpenDocument> lru_;  // most recently used first
  std::unordered_map<std::string, std::list<OpenDocument>::iterator> by_uri_;
};

}  // namespace keydecide::ls

#endif  // KEYDECIDE_FRONTENDS_LS_DOCUMENT_STORE_H_
