#include "core/learner/module_realm.h"

#include <utility>

#include "core/learner/prelude.h"

namespace learner {
namespace {

base::Status NoClient() {
  return base::Status(base::StatusCode::kServiceUnavailable,
                      "the client is only available inside reconcile (not while the module loads)");
}

base::StatusOr<api::Json> Args(const std::string& args_json, size_t count) {
  api::Json args = api::Json::parse(args_json, nullptr, false);
  if (args.is_discarded() || !args.is_array() || args.size() < count) {
    return base::Status(base::StatusCode::kBadRequest, "bad arguments");
  }
  return args;
}

std::string Str(const api::Json& v) { return v.is_string() ? v.get<std::string>() : ""; }

std::string Dump(const base::StatusOr<api::ObjectPtr>& obj) {
  return *obj == nullptr ? "null" : (*obj)->dump();
}

using Fn = std::function<base::StatusOr<std::string>(client::Client&, const api::Json& args)>;

// Bind wraps fn so it reads its arguments and refuses without a client.
js::HostFunction Bind(HostBinding* binding, size_t argc, Fn fn) {
  return [binding, argc, fn](const std::string& args_json) -> base::StatusOr<std::string> {
    if (binding == nullptr || binding->client == nullptr) return NoClient();
    auto args = Args(args_json, argc);
    if (!args.ok()) return args.status();
    return fn(*binding->client, *args);
  };
}

// KindOf checks that a write's object names a kind the client knows.
base::Status NeedsObject(const api::Json& obj) {
  if (!obj.is_object() || !obj.contains("kind") || !obj["kind"].is_string()) {
    return base::Status(base::StatusCode::kBadRequest, "Object 'Kind' is missing");
  }
  return base::Status::OK();
}

base::Status DefineClient(js::Realm& realm, HostBinding* binding) {
  // mirrors pkg/client interfaces.go: Reader.Get / List (the cache), Writer, StatusWriter.
  std::pair<const char*, js::HostFunction> fns[] = {
      {"get", Bind(binding, 3,
                   [](client::Client& c, const api::Json& a) -> base::StatusOr<std::string> {
                     auto obj = c.Get(Str(a[0]), Str(a[1]), Str(a[2]));
                     if (!obj.ok()) return obj.status();
                     return Dump(obj);
                   })},
      {"list", Bind(binding, 3,
                    [](client::Client& c, const api::Json& a) -> base::StatusOr<std::string> {
                      client::ListOptions opts;
                      opts.label_selector = Str(a[2]);
                      auto items = c.List(Str(a[0]), Str(a[1]), opts);
                      if (!items.ok()) return items.status();
                      std::string out = "[";
                      for (size_t i = 0; i < items->size(); ++i) {
                        out += (i == 0 ? "" : ",") + (*items)[i]->dump();
                      }
                      return out + "]";
                    })},
      {"create", Bind(binding, 1,
                      [](client::Client& c, const api::Json& a) -> base::StatusOr<std::string> {
                        if (base::Status s = NeedsObject(a[0]); !s.ok()) return s;
                        auto obj = c.Create(a[0]);
                        if (!obj.ok()) return obj.status();
                        return Dump(obj);
                      })},
      {"update", Bind(binding, 1,
                      [](client::Client& c, const api::Json& a) -> base::StatusOr<std::string> {
                        if (base::Status s = NeedsObject(a[0]); !s.ok()) return s;
                        auto obj = c.Update(a[0]);
                        if (!obj.ok()) return obj.status();
                        return Dump(obj);
                      })},
      {"updateStatus",
       Bind(binding, 1,
            [](client::Client& c, const api::Json& a) -> base::StatusOr<std::string> {
              if (base::Status s = NeedsObject(a[0]); !s.ok()) return s;
              auto obj = c.UpdateStatus(a[0]);
              if (!obj.ok()) return obj.status();
              return Dump(obj);
            })},
      {"patch", Bind(binding, 6,
                     [](client::Client& c, const api::Json& a) -> base::StatusOr<std::string> {
                       const std::string type = Str(a[3]);
                       if (type != "merge" && type != "json") {
                         return base::Status(
                             base::StatusCode::kBadRequest,
                             "patch type must be 'merge' or 'json', not \"" + type + "\"");
                       }
                       const client::PatchType t = type == "merge" ? client::PatchType::kJsonMerge
                                                                   : client::PatchType::kJsonPatch;
                       const bool status = a[5].is_boolean() && a[5].get<bool>();
                       auto obj = status ? c.PatchStatus(Str(a[0]), Str(a[1]), Str(a[2]), t, a[4])
                                         : c.Patch(Str(a[0]), Str(a[1]), Str(a[2]), t, a[4]);
                       if (!obj.ok()) return obj.status();
                       return Dump(obj);
                     })},
      {"delete", Bind(binding, 3,
                      [](client::Client& c, const api::Json& a) -> base::StatusOr<std::string> {
                        auto obj = c.Delete(Str(a[0]), Str(a[1]), Str(a[2]), {});
                        if (!obj.ok()) return obj.status();
                        return Dump(obj);
                      })},
  };
  for (auto& [name, fn] : fns) {
    if (base::Status s = realm.DefineHost(name, std::move(fn)); !s.ok()) return s;
  }
  return realm.DefineHost("log",
                          [binding](const std::string& args_json) -> base::StatusOr<std::string> {
                            auto args = Args(args_json, 3);
                            if (!args.ok()) return args.status();
                            if (binding == nullptr || !binding->log) return std::string();
                            reconcile::ReconcileContext::KeyValues kv;
                            const api::Json& fields = (*args)[2];
                            if (fields.is_array()) {
                              for (const api::Json& pair : fields) {
                                if (pair.is_array() && pair.size() == 2)
                                  kv.emplace_back(Str(pair[0]), Str(pair[1]));
                              }
                            }
                            binding->log(Str((*args)[0]), Str((*args)[1]), kv);
                            return std::string();
                          });
}

int64_t LineCount(const std::string& source) {
  int64_t lines = 0;
  for (char c : source) lines += c == '\n' ? 1 : 0;
  if (!source.empty() && source.back() != '\n') ++lines;
  return lines;
}

}  // namespace

base::Status InModule(const base::Status& error, const std::string& filename, int64_t lines) {
  const std::string& message = error.message();
  const std::string prefix = filename + ":";
  if (message.rfind(prefix, 0) != 0) {
    // A stop with no frame (a budget stop inside the reconcile's promise) names the module.
    return base::Status(error.code(), prefix + " " + message);
  }
  size_t end = prefix.size();
  int64_t line = 0;
  while (end < message.size() && message[end] >= '0' && message[end] <= '9' && line <= lines) {
    line = line * 10 + (message[end] - '0');
    ++end;
  }
  if (end == prefix.size() || line <= lines) return error;
  // Skip ":COL: " after the line.
  const size_t rest = message.find(": ", end);
  if (rest == std::string::npos) return error;
  return base::Status(error.code(), prefix + " " + message.substr(rest + 2));
}

namespace {

js::Limits& CurrentModuleLimits() {
  static js::Limits limits = [] {
    js::Limits defaults;
    defaults.steps = 2'000'000;
    defaults.memory_units = 200'000;
    defaults.call_depth = 200;
    return defaults;
  }();
  return limits;
}

}  // namespace

js::Limits ModuleLimits() { return CurrentModuleLimits(); }

void SetModuleLimits(const js::Limits& limits) { CurrentModuleLimits() = limits; }

base::StatusOr<std::string> ModuleRealm::Call(const std::string& name,
                                              const std::string& args_json) {
  auto out = realm_->Call(name, args_json);
  if (out.ok()) return out;
  return InModule(out.status(), filename_, lines_);
}

base::StatusOr<std::unique_ptr<ModuleRealm>> ModuleRealm::Load(const lab::ModuleSource& module,
                                                               uint64_t seed,
                                                               HostBinding* binding) {
  js::RealmOptions options;
  options.seed = seed;
  options.limits = ModuleLimits();
  auto realm = js::Realm::Create(options);
  if (!realm.ok()) return realm.status();
  if (base::Status s = DefineClient(**realm, binding); !s.ok()) return s;
  const int64_t lines = LineCount(module.source);
  if (base::Status s = (*realm)->Eval(WithPrelude(module.source, module.filename), module.filename);
      !s.ok()) {
    base::Status located = InModule(s, module.filename, lines);
    if (located.message() == s.message() || s.code() != base::StatusCode::kInvalid) return located;
    // A syntax error the parser met only in the prelude (an unclosed bracket runs into it): the
    // module alone, compiled in a realm of its own, says where it went wrong.
    js::RealmOptions bare;
    bare.limits = ModuleLimits();
    auto alone = js::Realm::Create(bare);
    if (!alone.ok()) return located;
    base::Status own = (*alone)->Eval(module.source, module.filename);
    return own.code() == base::StatusCode::kInvalid ? own : located;
  }
  auto described = (*realm)->Call(kDescribe, "[]");
  if (!described.ok()) return InModule(described.status(), module.filename, lines);
  auto declaration = ParseDeclaration(*described);
  if (!declaration.ok()) {
    return base::Status(declaration.status().code(),
                        module.filename + ": " + declaration.status().message());
  }
  std::unique_ptr<ModuleRealm> out(new ModuleRealm());
  out->filename_ = module.filename;
  out->lines_ = lines;
  out->realm_ = std::move(*realm);
  out->declaration_ = std::move(*declaration);
  return out;
}

}  // namespace learner
