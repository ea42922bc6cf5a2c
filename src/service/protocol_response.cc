// Response lines for edits and decisions, written by hand: this runs once per keystroke on
// the worker thread, and a JSON tree per response would cost more than the decision.

#include <charconv>
#include <cmath>

#include "keydecide/decision.h"
#include "service/protocol.h"

namespace keydecide::service {

namespace {

void AppendFloat(float v, std::string* out) {
  if (!std::isfinite(v)) {
    out->append("null");
    return;
  }
  char buf[32];
  // Three decimals are plenty for scores, probabilities and microseconds.
  const auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, 3);
  out->append(buf, r.ptr);
}

void AppendUint(uint64_t v, std::string* out) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

void AppendDecision(const Decision& d, std::string* out) {
  out->append("{\"composition\":");
  AppendJsonString(d.composition, out);
  out->append(",\"preedit\":");
  AppendJsonString(d.preedit, out);
  out->append(",\"tier\":\"");
  out->append(TierName(d.tier));
  out->append("\",\"candidates\":[");
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    const Candidate& c = d.candidates[i];
    if (i > 0) out->push_back(',');
    out->append("{\"text\":");
    AppendJsonString(c.text, out);
    out->append(",\"score\":");
    AppendFloat(c.score, out);
    out->append(",\"kind\":\"");
    out->append(CandidateKindName(c.kind));
    out->append("\",\"id\":");
    AppendUint(c.id, out);
    out->push_back('}');
  }
  out->append("],\"popup\":{\"show\":");
  out->append(d.popup.show ? "true" : "false");
  out->append(",\"probability\":");
  AppendFloat(d.popup.probability, out);
  out->append("},\"autocorrect\":{\"apply\":");
  out->append(d.autocorrect.apply ? "true" : "false");
  out->append(",\"replacement\":");
  AppendJsonString(d.autocorrect.replacement, out);
  out->append(",\"confidence\":");
  AppendFloat(d.autocorrect.confidence, out);
  out->push_back('}');
  if (!d.shortcut.trigger.empty()) {  // only when one matches: most decisions have none
    out->append(",\"shortcut\":{\"fire\":");
    out->append(d.shortcut.fire ? "true" : "false");
    out->append(",\"trigger\":");
    AppendJsonString(d.shortcut.trigger, out);
    out->append(",\"expansion\":");
    AppendJsonString(d.shortcut.expansion, out);
    out->push_back('}');
  }
  out->append(",\"intent\":");
  AppendJsonString(d.intent.label, out);
  out->append(",\"has_model\":");
  out->append(d.has_model ? "true" : "false");
  out->append(",\"decide_us\":");
  AppendFloat(d.timings.total_us, out);
  out->push_back('}');
}

}  // namespace

void AppendResponseLine(std::string_view id, uint64_t session, const Response& r,
                        std::string* out) {
  if (r.outcome == Outcome::kFailed) {
    const bool bad_text = r.status.code() == Status::Code::kInvalidArgument;
    out->append(
        ErrorLine(id, bad_text ? errors::kInvalidText : errors::kBadRequest, r.status.message()));
    return;
  }
  out->append("{\"id\":");
  out->append(id.empty() ? std::string_view("null") : id);
  out->append(",\"ok\":true,\"session\":");
  AppendUint(session, out);
  out->append(",\"outcome\":\"");
  out->append(OutcomeName(r.outcome));
  out->append("\",\"coalesced\":");
  AppendUint(r.coalesced, out);
  out->append(",\"queue_us\":");
  AppendFloat(r.queue_us, out);
  out->append(",\"service_us\":");
  AppendFloat(r.service_us, out);
  if (r.outcome == Outcome::kDecided && r.decision != nullptr) {
    out->append(",\"decision\":");
    AppendDecision(*r.decision, out);
  }
  out->append("}\n");
}

}  // namespace keydecide::service
