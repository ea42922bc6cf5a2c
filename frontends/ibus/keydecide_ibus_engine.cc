#include "keydecide_ibus_engine.h"

#include <ibus.h>

#include <memory>
#include <string>
#include <utility>

#include "ibus_content_type.h"
#include "ibus_key.h"

namespace keydecide::ibus {

namespace {

EngineContext g_context;

constexpr char kLanguageProperty[] = "keydecide-language";

// IBus names lengths and positions in characters.
guint CharCount(const std::string& s) {
  return static_cast<guint>(g_utf8_strlen(s.c_str(), static_cast<gssize>(s.size())));
}

void Log(const char* what, long value) {  // NOLINT(runtime/int): g_get_real_time's type
  if (g_context.log == nullptr) return;
  // The wall clock, in µs, so that a test can compare it with the time it sent the key.
  std::fprintf(g_context.log, "%s %ld %lld\n", what, value,
               static_cast<long long>(g_get_real_time()));  // NOLINT(runtime/int)
  std::fflush(g_context.log);
}

// The TypingHost of one engine: IBus's calls for what the state shows.
class IBusHost : public TypingHost {
 public:
  explicit IBusHost(IBusEngine* engine) : engine_(engine) {}

  void CommitText(const std::string& text) override {
    ibus_engine_commit_text(engine_, ibus_text_new_from_string(text.c_str()));
  }

  void DeleteBefore(int chars) override {
    if ((engine_->client_capabilities & IBUS_CAP_SURROUNDING_TEXT) != 0) {
      ibus_engine_delete_surrounding_text(engine_, -chars, static_cast<guint>(chars));
      return;
    }
    constexpr guint kBackspaceKeycode = 14;  // evdev KEY_BACKSPACE
    for (int i = 0; i < chars; ++i) {
      ibus_engine_forward_key_event(engine_, IBUS_KEY_BackSpace, kBackspaceKeycode, 0);
      ibus_engine_forward_key_event(engine_, IBUS_KEY_BackSpace, kBackspaceKeycode,
                                    IBUS_RELEASE_MASK);
    }
  }

  void ShowPanel(const PanelView& view) override {
    IBusText* preedit = ibus_text_new_from_string(view.preedit.c_str());
    const guint length = CharCount(view.preedit);
    if (length > 0) {
      ibus_text_append_attribute(preedit, IBUS_ATTR_TYPE_UNDERLINE, IBUS_ATTR_UNDERLINE_SINGLE, 0,
                                 length);
    }
    ibus_engine_update_preedit_text(engine_, preedit, length, length > 0);
    if (view.candidates.empty()) {
      ibus_engine_hide_lookup_table(engine_);
    } else {
      IBusLookupTable* table =
          ibus_lookup_table_new(static_cast<guint>(view.page_size), 0, TRUE, FALSE);
      ibus_lookup_table_set_orientation(table, IBUS_ORIENTATION_HORIZONTAL);
      for (const std::string& c : view.candidates) {
        ibus_lookup_table_append_candidate(table, ibus_text_new_from_string(c.c_str()));
      }
      ibus_lookup_table_set_cursor_pos(table, static_cast<guint>(view.cursor));
      ibus_engine_update_lookup_table(engine_, table, TRUE);
    }
    Log("panel", static_cast<long>(view.candidates.size()));  // NOLINT(runtime/int)
  }

 private:
  IBusEngine* engine_;
};

// One engine's C++ side.
struct Glue {
  explicit Glue(IBusEngine* engine, TypingSettings settings)
      : host(engine), state(g_context.worker, &host, std::move(settings)) {}
  IBusHost host;
  TypingState state;
  IBusPropList* properties = nullptr;  // the language indicator, owned
};

struct Engine {
  IBusEngine parent;
  Glue* glue;
};

struct EngineClass {
  IBusEngineClass parent;
};

gpointer g_parent_class = nullptr;

Glue* GlueOf(IBusEngine* engine) { return reinterpret_cast<Engine*>(engine)->glue; }

void UpdateIndicator(IBusEngine* engine) {
  Glue* glue = GlueOf(engine);
  IBusProperty* prop = ibus_prop_list_get(glue->properties, 0);
  const std::string& label = glue->state.traits().indicator;
  ibus_property_set_label(prop, ibus_text_new_from_string(label.c_str()));
  ibus_property_set_symbol(prop, ibus_text_new_from_string(label.c_str()));
  ibus_engine_update_property(engine, prop);
}

void Constructed(GObject* object) {
  G_OBJECT_CLASS(g_parent_class)->constructed(object);
  IBusEngine* engine = IBUS_ENGINE(object);
  TypingSettings settings = g_context.settings;
  // "keydecide-pinyin" starts in the second language ("zh"), "keydecide" in the first.
  const std::string name = ibus_engine_get_name(engine);
  if (name.size() > 7 && name.compare(name.size() - 7, 7, "-pinyin") == 0 &&
      settings.languages.size() > 1) {
    std::swap(settings.languages[0], settings.languages[1]);
  }
  Glue* glue = new Glue(engine, std::move(settings));
  reinterpret_cast<Engine*>(engine)->glue = glue;
  glue->properties = ibus_prop_list_new();
  g_object_ref_sink(glue->properties);
  ibus_prop_list_append(
      glue->properties,
      ibus_property_new(kLanguageProperty, PROP_TYPE_NORMAL, ibus_text_new_from_string(""), nullptr,
                        ibus_text_new_from_static_string("Switch language (Control+Shift+space)"),
                        TRUE, TRUE, PROP_STATE_UNCHECKED, nullptr));
}

void Destroy(IBusObject* object) {
  Engine* engine = reinterpret_cast<Engine*>(object);
  if (engine->glue != nullptr) {
    g_object_unref(engine->glue->properties);
    delete engine->glue;
    engine->glue = nullptr;
  }
  IBUS_OBJECT_CLASS(g_parent_class)->destroy(object);
}

gboolean ProcessKeyEvent(IBusEngine* engine, guint keyval, guint /*keycode*/, guint modifiers) {
  // Logged without the key: the log may be on while a password is typed.
  if ((modifiers & IBUS_RELEASE_MASK) == 0) Log("key", 0);
  const KeyPress key = KeyPressFromIBus(keyval, modifiers);
  Glue* glue = GlueOf(engine);
  const std::string before = glue->state.language();
  const bool consumed = glue->state.HandleKey(key);
  if (glue->state.language() != before) UpdateIndicator(engine);
  return consumed ? TRUE : FALSE;
}

void FocusIn(IBusEngine* engine) {
  ibus_engine_register_properties(engine, GlueOf(engine)->properties);
  UpdateIndicator(engine);
}

void FocusOut(IBusEngine* engine) { GlueOf(engine)->state.Flush(); }
void Reset(IBusEngine* engine) { GlueOf(engine)->state.Flush(); }
void Disable(IBusEngine* engine) { GlueOf(engine)->state.Flush(); }
void PageUp(IBusEngine* engine) { GlueOf(engine)->state.PageUp(); }
void PageDown(IBusEngine* engine) { GlueOf(engine)->state.PageDown(); }

void CandidateClicked(IBusEngine* engine, guint index, guint /*button*/, guint /*state*/) {
  TypingState& state = GlueOf(engine)->state;
  const PanelView& panel = state.panel();
  state.Pick(panel.cursor / panel.page_size * panel.page_size + static_cast<int>(index));
}

void PropertyActivate(IBusEngine* engine, const gchar* name, guint /*state*/) {
  if (std::string(name) != kLanguageProperty) return;
  KeyPress key;
  key.kind = KeyPress::Kind::kSwitchLanguage;
  GlueOf(engine)->state.HandleKey(key);
  UpdateIndicator(engine);
}

void SetContentType(IBusEngine* engine, guint purpose, guint hints) {
  Log("purpose", static_cast<long>(purpose));  // NOLINT(runtime/int)
  GlueOf(engine)->state.SetField(FieldPolicyFromIBus(purpose, hints));
}

void ClassInit(gpointer klass, gpointer /*data*/) {
  g_parent_class = g_type_class_peek_parent(klass);
  G_OBJECT_CLASS(klass)->constructed = Constructed;
  IBUS_OBJECT_CLASS(klass)->destroy = Destroy;
  IBusEngineClass* engine = IBUS_ENGINE_CLASS(klass);
  engine->process_key_event = ProcessKeyEvent;
  engine->focus_in = FocusIn;
  engine->focus_out = FocusOut;
  engine->reset = Reset;
  engine->disable = Disable;
  engine->page_up = PageUp;
  engine->page_down = PageDown;
  engine->candidate_clicked = CandidateClicked;
  engine->property_activate = PropertyActivate;
  engine->set_content_type = SetContentType;
}

void InstanceInit(GTypeInstance* instance, gpointer /*klass*/) {
  reinterpret_cast<Engine*>(instance)->glue = nullptr;
}

}  // namespace

void SetEngineContext(const EngineContext& context) { g_context = context; }

GType KeydecideEngineGetType() {
  static const GType type = g_type_register_static_simple(
      IBUS_TYPE_ENGINE, "IBusKeydecideEngine", sizeof(EngineClass), ClassInit, sizeof(Engine),
      InstanceInit, static_cast<GTypeFlags>(0));
  return type;
}

}  // namespace keydecide::ibus
