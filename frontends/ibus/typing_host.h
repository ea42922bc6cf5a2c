// TypingHost: what the typing logic (TypingState) asks of the framework it runs in; the IBus
// engine implements it, the unit tests record it.

#ifndef KEYDECIDE_FRONTENDS_IBUS_TYPING_HOST_H_
#define KEYDECIDE_FRONTENDS_IBUS_TYPING_HOST_H_

#include <string>
#include <vector>

namespace keydecide::ibus {

// What the input panel shows.
struct PanelView {
  std::string preedit;                  // the word being composed, cursor at its end; "" none
  std::vector<std::string> candidates;  // the whole list, best first; empty: no window
  int cursor = 0;                       // the highlighted candidate (its page is shown)
  int page_size = 5;
};

class TypingHost {
 public:
  virtual ~TypingHost() = default;
  // Inserts `text` at the application's cursor (replacing nothing: the preedit is cleared by
  // the next ShowPanel).
  virtual void CommitText(const std::string& text) = 0;
  // Deletes the `chars` characters (not bytes) before the application's cursor: through the
  // surrounding text where the application supports it, else by sending Backspace keys.
  virtual void DeleteBefore(int chars) = 0;
  virtual void ShowPanel(const PanelView& view) = 0;
};

}  // namespace keydecide::ibus

#endif  // KEYDECIDE_FRONTENDS_IBUS_TYPING_HOST_H_
