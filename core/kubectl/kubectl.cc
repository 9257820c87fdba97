#include "core/kubectl/kubectl.h"

#include "core/api/manifest.h"
#include "core/apiserver/api_server.h"

namespace kubectl {

std::string ServerError(const base::Status& status) {
  return std::string("Error from server (") + status.reason() + "): " + status.message();
}

std::string ResourceName(const api::KindInfo& kind) {
  return kind.group.empty() ? kind.singular : kind.singular + "." + kind.group;
}

base::StatusOr<const api::KindInfo*> ResolveKind(const std::string& text,
                                                 const apiserver::ApiServer* server) {
  const api::KindInfo* kind = server != nullptr ? server->Discover(text) : api::FindKind(text);
  if (kind == nullptr) {
    return base::Status(base::StatusCode::kNotFound,
                        "error: the server doesn't have a resource type \"" + text + "\"");
  }
  return kind;
}

base::StatusOr<std::vector<ObjectRef>> ParseObjectRefs(const std::vector<std::string>& args,
                                                       const apiserver::ApiServer* server) {
  std::vector<ObjectRef> refs;
  if (args.empty()) {
    return base::Status(base::StatusCode::kBadRequest,
                        "error: you must specify the type of resource to get");
  }
  if (args[0].find('/') != std::string::npos) {
    for (const std::string& arg : args) {
      const size_t slash = arg.find('/');
      if (slash == std::string::npos || slash == 0 || slash + 1 == arg.size()) {
        return base::Status(base::StatusCode::kBadRequest,
                            "error: there is no need to specify a resource type as a separate "
                            "argument when passing arguments in resource/name form (e.g. "
                            "'kubectl get resource/<resource_name>' instead of 'kubectl get "
                            "resource resource/<resource_name>'");
      }
      auto kind = ResolveKind(arg.substr(0, slash), server);
      if (!kind.ok()) return kind.status();
      refs.push_back(ObjectRef{*kind, arg.substr(slash + 1)});
    }
    return refs;
  }
  auto kind = ResolveKind(args[0], server);
  if (!kind.ok()) return kind.status();
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].find('/') != std::string::npos) {
      return base::Status(base::StatusCode::kBadRequest,
                          "error: there is no need to specify a resource type as a separate "
                          "argument when passing arguments in resource/name form (e.g. 'kubectl "
                          "get resource/<resource_name>' instead of 'kubectl get resource "
                          "resource/<resource_name>'");
    }
    refs.push_back(ObjectRef{*kind, args[i]});
  }
  if (refs.empty()) refs.push_back(ObjectRef{*kind, ""});
  return refs;
}

namespace {

// DecodeText decodes one input's text with kubectl's messages.
base::StatusOr<std::vector<api::Json>> DecodeText(const std::string& text,
                                                  const std::string& source) {
  auto docs = api::DecodeManifests(text, source);
  if (!docs.ok()) {
    const std::string& message = docs.status().message();
    if (message.rfind("error:", 0) == 0) return docs.status();
    return base::Status(docs.status().code(), "error: " + message);
  }
  return docs;
}

bool HasManifestExtension(const std::string& name) {
  // mirrors cli-runtime pkg/resource/visitor.go FileExtensions
  for (const char* ext : {".json", ".yaml", ".yml"}) {
    const std::string e = ext;
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

base::StatusOr<std::vector<api::Json>> ReadManifests(const FileSystem& files,
                                                     const std::string& path,
                                                     const std::string& base_dir,
                                                     const std::string* heredoc,
                                                     std::string* source) {
  std::vector<api::Json> docs;
  if (path == "-") {
    *source = "STDIN";
    if (heredoc == nullptr) {
      return base::Status(base::StatusCode::kBadRequest,
                          "error: no objects passed to apply (use -f - with a <<EOF heredoc)");
    }
    auto decoded = DecodeText(*heredoc, *source);
    if (!decoded.ok()) return decoded.status();
    docs = std::move(*decoded);
  } else {
    *source = path;
    const std::string full = JoinPath(base_dir, path);
    // (path to read, name in messages), in read order
    std::vector<std::pair<std::string, std::string>> inputs;
    if (files.IsDirectory(full)) {
      auto names = files.ListDirectory(full);
      if (!names.ok()) return names.status();
      for (const std::string& name : *names) {
        if (HasManifestExtension(name)) {
          inputs.push_back({JoinPath(full, name), JoinPath(path, name)});
        }
      }
    } else {
      inputs.push_back({full, path});
    }
    for (const auto& [input, shown] : inputs) {
      auto text = files.ReadFile(input);
      if (!text.ok() && text.status().code() == base::StatusCode::kRequestEntityTooLarge) {
        return text.status();
      }
      if (!text.ok()) {
        return base::Status(base::StatusCode::kNotFound,
                            "error: the path \"" + path + "\" does not exist");
      }
      auto decoded = DecodeText(*text, shown);
      if (!decoded.ok()) return decoded.status();
      for (api::Json& doc : *decoded) docs.push_back(std::move(doc));
    }
  }
  if (docs.empty()) {
    return base::Status(base::StatusCode::kBadRequest, "error: no objects passed to apply");
  }
  return docs;
}

base::StatusOr<std::string> ResolveNamespace(const api::KindInfo& kind, const api::Json& obj,
                                             const std::string& flag_namespace, bool flag_set) {
  if (!kind.namespaced) return std::string();
  const std::string own = api::Namespace(obj);
  if (!own.empty() && flag_set && own != flag_namespace) {
    // mirrors cli-runtime resource/mapper.go / kubectl apply's namespace check
    return base::Status(base::StatusCode::kBadRequest,
                        "error: the namespace from the provided object \"" + own +
                            "\" does not match the namespace \"" + flag_namespace +
                            "\". You must pass '--namespace=" + own +
                            "' to perform this operation.");
  }
  if (!own.empty()) return own;
  return flag_namespace.empty() ? std::string("default") : flag_namespace;
}

std::string DumpJson(const api::Json& doc) {
  return doc.dump(4, ' ', false, api::Json::error_handler_t::replace) + "\n";
}

api::Json AsList(const std::vector<api::ObjectPtr>& objects) {
  api::Json list = {{"apiVersion", "v1"},
                    {"kind", "List"},
                    {"items", api::Json::array()},
                    {"metadata", {{"resourceVersion", ""}}}};
  for (const auto& obj : objects) list["items"].push_back(*obj);
  return list;
}

}  // namespace kubectl
