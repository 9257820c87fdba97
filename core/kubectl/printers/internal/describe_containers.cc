// kubectl describe's container, volume and toleration sections.
// Mirrors kubectl pkg/describe/describe.go (describeContainers, describeContainerState,
// DescribeProbe, describeContainerEnvVars, describeVolumes, printTolerationsMultilineWithIndent).
#include <algorithm>

#include "core/kubectl/printers/internal/columns.h"
#include "core/kubectl/printers/internal/describe_util.h"

namespace kubectl::printers::internal {

using api::Json;

namespace {

std::string ContainerNum(int64_t v) { return std::to_string(v); }
std::string TrueFalse(bool v) { return v ? "True" : "False"; }  // describe.go printBool
std::string GoBool(bool v) { return v ? "true" : "false"; }

// ---- containers ----

// mirrors describe.go DescribeProbe (API server defaults: timeout 1s, period 10s, 1 success, 3
// failures)
std::string DescribeProbe(const Json* probe) {
  const std::string attrs = "delay=" + ContainerNum(Int(Field(probe, "initialDelaySeconds"), 0)) +
                            "s timeout=" + ContainerNum(Int(Field(probe, "timeoutSeconds"), 1)) +
                            "s period=" + ContainerNum(Int(Field(probe, "periodSeconds"), 10)) +
                            "s #success=" + ContainerNum(Int(Field(probe, "successThreshold"), 1)) +
                            " #failure=" + ContainerNum(Int(Field(probe, "failureThreshold"), 3));
  if (const Json* exec = Field(probe, "exec"); exec != nullptr) {
    const Json* command = Field(exec, "command");
    return "exec " + (command != nullptr && command->is_array() ? GoValue(*command) : "[]") + " " +
           attrs;
  }
  if (const Json* get = Field(probe, "httpGet"); get != nullptr) {
    std::string scheme = Str(Field(get, "scheme"));
    if (scheme.empty()) scheme = "HTTP";
    for (char& c : scheme) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    const std::string host = Str(Field(get, "host"));
    const std::string port = IntOrString(Field(get, "port"), "");
    const std::string hostport = port.empty() ? host : JoinHostPort(host, port);
    return "http-get " + scheme + "://" + hostport + Str(Field(get, "path")) + " " + attrs;
  }
  if (const Json* tcp = Field(probe, "tcpSocket"); tcp != nullptr) {
    return "tcp-socket " + Str(Field(tcp, "host")) + ":" + IntOrString(Field(tcp, "port"), "") +
           " " + attrs;
  }
  if (const Json* grpc = Field(probe, "grpc"); grpc != nullptr) {
    return "grpc <pod>:" + ContainerNum(Int(Field(grpc, "port"), 0)) + " " + Str(Field(grpc, "service")) +
           " " + attrs;
  }
  return "unknown " + attrs;
}

// FieldRefValue resolves a downward-API fieldRef against the pod (EnvValueRetriever).
std::string FieldRefValue(const Json* pod, const std::string& path) {
  if (pod == nullptr) return "";
  for (const char* map_name : {"labels", "annotations"}) {
    const std::string prefix = std::string("metadata.") + map_name + "['";
    if (path.rfind(prefix, 0) == 0 && path.size() > prefix.size() + 2) {
      const std::string key = path.substr(prefix.size(), path.size() - prefix.size() - 2);
      return Str(Field(Path(*pod, {"metadata", map_name}), key.c_str()));
    }
  }
  const size_t dot = path.find('.');
  if (dot == std::string::npos) return "";
  return Str(Path(*pod, {path.substr(0, dot).c_str(), path.substr(dot + 1).c_str()}));
}

std::string ContainerPorts(const Json* ports, const char* field) {
  std::vector<std::string> out;
  for (const Json* p : Items(ports)) {
    std::string protocol = Str(Field(p, "protocol"));
    std::string s = ContainerNum(Int(Field(p, field), 0)) + "/" + (protocol.empty() ? "TCP" : protocol);
    if (!Str(Field(p, "name")).empty()) s += " (" + Str(Field(p, "name")) + ")";
    out.push_back(s);
  }
  return Join(out, ", ");
}

void DescribeState(DescribeWriter& w, const std::string& name, const Json* state) {
  if (const Json* running = Field(state, "running"); running != nullptr) {
    w.Write(2, name + ":\tRunning\n");
    w.Write(3, "Started:\t" + FormatRfc1123Z(Str(Field(running, "startedAt"))) + "\n");
  } else if (const Json* waiting = Field(state, "waiting"); waiting != nullptr) {
    w.Write(2, name + ":\tWaiting\n");
    if (!Str(Field(waiting, "reason")).empty()) {
      w.Write(3, "Reason:\t" + Str(Field(waiting, "reason")) + "\n");
    }
  } else if (const Json* t = Field(state, "terminated"); t != nullptr) {
    w.Write(2, name + ":\tTerminated\n");
    if (!Str(Field(t, "reason")).empty()) w.Write(3, "Reason:\t" + Str(Field(t, "reason")) + "\n");
    if (!Str(Field(t, "message")).empty()) {
      w.Write(3, "Message:\t" + Str(Field(t, "message")) + "\n");
    }
    w.Write(3, "Exit Code:\t" + ContainerNum(Int(Field(t, "exitCode"), 0)) + "\n");
    if (Int(Field(t, "signal"), 0) > 0) {
      w.Write(3, "Signal:\t" + ContainerNum(Int(Field(t, "signal"), 0)) + "\n");
    }
    w.Write(3, "Started:\t" + FormatRfc1123Z(Str(Field(t, "startedAt"))) + "\n");
    w.Write(3, "Finished:\t" + FormatRfc1123Z(Str(Field(t, "finishedAt"))) + "\n");
  } else {
    w.Write(2, name + ":\tWaiting\n");
  }
}

}  // namespace

void DescribeResources(DescribeWriter& w, const Json* resources, int level) {
  for (const char* kind : {"limits", "requests"}) {
    const Json* list = Field(resources, kind);
    if (Size(list) == 0 || !list->is_object()) continue;
    w.Write(level, std::string(kind[0] == 'l' ? "Limits" : "Requests") + ":\n");
    for (auto it = list->begin(); it != list->end(); ++it) {
      w.Write(level + 1, it.key() + ":\t" + GoValue(it.value()) + "\n");
    }
  }
}

namespace {

void DescribeEnv(DescribeWriter& w, const Json* c, const Json* pod) {
  if (const std::vector<const Json*> from = Items(Field(c, "envFrom")); !from.empty()) {
    w.Write(2, "Environment Variables from:\n");
    for (const Json* e : from) {
      const Json* cm = Field(e, "configMapRef");
      const Json* ref = cm != nullptr ? cm : Field(e, "secretRef");
      const std::string source = cm != nullptr ? "ConfigMap" : ref != nullptr ? "Secret" : "";
      const std::string prefix = Str(Field(e, "prefix"));
      w.Write(3, Str(Field(ref, "name")) + "\t" + source +
                     (prefix.empty() ? "" : " with prefix '" + prefix + "'") +
                     "\tOptional: " + GoBool(Bool(Field(ref, "optional"), false)) + "\n");
    }
  }
  const std::vector<const Json*> env = Items(Field(c, "env"));
  w.Write(2, env.empty() ? "Environment:\t<none>\n" : "Environment:\n");
  for (const Json* e : env) {
    const std::string name = Str(Field(e, "name"));
    const Json* from = Field(e, "valueFrom");
    if (from == nullptr) {
      const std::string value = Str(Field(e, "value"));
      size_t start = 0;
      for (bool first = true;; first = false) {
        const size_t end = value.find('\n', start);
        const std::string line =
            value.substr(start, end == std::string::npos ? std::string::npos : end - start);
        w.Write(3, (first ? name + ":\t" : "\t") + line + "\n");
        if (end == std::string::npos) break;
        start = end + 1;
      }
    } else if (const Json* f = Field(from, "fieldRef"); f != nullptr) {
      const std::string version =
          Str(Field(f, "apiVersion")).empty() ? "v1" : Str(Field(f, "apiVersion"));
      const std::string path = Str(Field(f, "fieldPath"));
      w.Write(3, name + ":\t" + FieldRefValue(pod, path) + " (" + version + ":" + path + ")\n");
    } else if (const Json* r = Field(from, "resourceFieldRef"); r != nullptr) {
      w.Write(3, name + ":\t (" + Str(Field(r, "resource")) + ")\n");
    } else if (const Json* s = Field(from, "secretKeyRef"); s != nullptr) {
      w.Write(3, name + ":\t<set to the key '" + Str(Field(s, "key")) + "' in secret '" +
                     Str(Field(s, "name")) +
                     "'>\tOptional: " + GoBool(Bool(Field(s, "optional"), false)) + "\n");
    } else if (const Json* m = Field(from, "configMapKeyRef"); m != nullptr) {
      w.Write(3, name + ":\t<set to the key '" + Str(Field(m, "key")) + "' of config map '" +
                     Str(Field(m, "name")) +
                     "'>\tOptional: " + GoBool(Bool(Field(m, "optional"), false)) + "\n");
    }
  }
}

}  // namespace

// mirrors describe.go describeContainers; pod is null for a template (no values to resolve).
void DescribeContainers(DescribeWriter& w, const std::string& label, const Json* containers,
                        const Json* statuses, const Json* pod, const std::string& space) {
  const std::vector<const Json*> list = Items(containers);
  w.Write(0, space + label + ":" + (list.empty() ? " <none>" : "") + "\n");
  for (const Json* c : list) {
    const Json* status = nullptr;
    for (const Json* s : Items(statuses)) {
      if (Str(Field(s, "name")) == Str(Field(c, "name"))) status = s;
    }
    w.Write(1, (space.empty() ? "" : " ") + Str(Field(c, "name")) + ":\n");
    if (status != nullptr) w.Write(2, "Container ID:\t" + Str(Field(status, "containerID")) + "\n");
    w.Write(2, "Image:\t" + Str(Field(c, "image")) + "\n");
    if (status != nullptr) w.Write(2, "Image ID:\t" + Str(Field(status, "imageID")) + "\n");
    const std::string ports = ContainerPorts(Field(c, "ports"), "containerPort");
    const bool many = ports.find(',') != std::string::npos;
    w.Write(2,
            std::string(many ? "Ports:\t" : "Port:\t") + (ports.empty() ? "<none>" : ports) + "\n");
    const std::string host_ports = ContainerPorts(Field(c, "ports"), "hostPort");
    w.Write(2, std::string(many ? "Host Ports:\t" : "Host Port:\t") +
                   (host_ports.empty() ? "<none>" : host_ports) + "\n");
    for (const char* field : {"command", "args"}) {
      const std::vector<const Json*> words = Items(Field(c, field));
      if (words.empty()) continue;
      w.Write(2, std::string(field[0] == 'c' ? "Command" : "Args") + ":\n");
      for (const Json* word : words) {
        const std::string text = Str(word);
        size_t start = 0;
        while (true) {
          const size_t end = text.find('\n', start);
          w.Write(3,
                  text.substr(start, end == std::string::npos ? std::string::npos : end - start) +
                      "\n");
          if (end == std::string::npos) break;
          start = end + 1;
        }
      }
    }
    if (status != nullptr) {
      DescribeState(w, "State", Field(status, "state"));
      if (Path(*status, {"lastState", "terminated"}) != nullptr) {
        DescribeState(w, "Last State", Field(status, "lastState"));
      }
      w.Write(2, "Ready:\t" + TrueFalse(Bool(Field(status, "ready"), false)) + "\n");
      w.Write(2, "Restart Count:\t" + ContainerNum(Int(Field(status, "restartCount"), 0)) + "\n");
    }
    DescribeResources(w, Field(c, "resources"), 2);
    for (const auto& [field, title] :
         std::vector<std::pair<const char*, const char*>>{{"livenessProbe", "Liveness"},
                                                          {"readinessProbe", "Readiness"},
                                                          {"startupProbe", "Startup"}}) {
      if (const Json* probe = Field(c, field); probe != nullptr) {
        w.Write(2, std::string(title) + ":\t" + DescribeProbe(probe) + "\n");
      }
    }
    DescribeEnv(w, c, pod);
    std::vector<const Json*> mounts = Items(Field(c, "volumeMounts"));
    std::stable_sort(mounts.begin(), mounts.end(), [](const Json* a, const Json* b) {
      return Str(Field(a, "mountPath")) < Str(Field(b, "mountPath"));
    });
    w.Write(2, mounts.empty() ? "Mounts:\t<none>\n" : "Mounts:\n");
    for (const Json* m : mounts) {
      std::string flags = Bool(Field(m, "readOnly"), false) ? "ro" : "rw";
      if (!Str(Field(m, "subPath")).empty()) flags += ",path=\"" + Str(Field(m, "subPath")) + "\"";
      w.Write(3,
              Str(Field(m, "mountPath")) + " from " + Str(Field(m, "name")) + " (" + flags + ")\n");
    }
  }
}

// mirrors describe.go describeVolumes for the volume sources the lab's objects use.
void DescribeVolumes(DescribeWriter& w, const Json* volumes, const std::string& space) {
  const std::vector<const Json*> list = Items(volumes);
  if (list.empty()) {
    w.Write(0, space + "Volumes:\t<none>\n");
    return;
  }
  w.Write(0, space + "Volumes:\n");
  for (const Json* v : list) {
    w.Write(1, (space.empty() ? "" : " ") + Str(Field(v, "name")) + ":\n");
    if (const Json* hp = Field(v, "hostPath"); hp != nullptr) {
      const std::string type = Str(Field(hp, "type"));
      w.Write(2, "Type:\tHostPath (bare host directory volume)\n    Path:\t" +
                     Str(Field(hp, "path")) + "\n    HostPathType:\t" +
                     (Field(hp, "type") != nullptr ? type : "<none>") + "\n");
    } else if (const Json* ed = Field(v, "emptyDir"); ed != nullptr) {
      const Json* limit = Field(ed, "sizeLimit");
      std::optional<__int128> q = QuantityMilli(limit);
      w.Write(
          2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t" +
                 Str(Field(ed, "medium")) + "\n    SizeLimit:\t" +
                 (q && *q > 0 ? GoValue(*limit) : "<unset>") + "\n");
    } else if (const Json* sec = Field(v, "secret"); sec != nullptr) {
      w.Write(2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t" +
                     Str(Field(sec, "secretName")) + "\n    Optional:\t" +
                     GoBool(Bool(Field(sec, "optional"), false)) + "\n");
    } else if (const Json* cm = Field(v, "configMap"); cm != nullptr) {
      w.Write(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t" +
                     Str(Field(cm, "name")) + "\n    Optional:\t" +
                     GoBool(Bool(Field(cm, "optional"), false)) + "\n");
    } else if (const Json* pvc = Field(v, "persistentVolumeClaim"); pvc != nullptr) {
      w.Write(2,
              "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same "
              "namespace)\n"
              "    ClaimName:\t" +
                  Str(Field(pvc, "claimName")) + "\n    ReadOnly:\t" +
                  GoBool(Bool(Field(pvc, "readOnly"), false)) + "\n");
    } else {
      w.Write(1, "<unknown>\n");
    }
  }
}

// mirrors describe.go printTolerationsMultilineWithIndent (sorted by key)
void PrintTolerations(DescribeWriter& w, const std::string& title, const Json* tolerations) {
  std::vector<const Json*> list = Items(tolerations);
  w.Write(0, title + ":\t");
  if (list.empty()) {
    w.Write(0, "<none>\n");
    return;
  }
  std::stable_sort(list.begin(), list.end(), [](const Json* a, const Json* b) {
    return Str(Field(a, "key")) < Str(Field(b, "key"));
  });
  for (size_t i = 0; i < list.size(); ++i) {
    const Json* t = list[i];
    std::string line = i == 0 ? "" : "\t";
    const std::string key = Str(Field(t, "key")), value = Str(Field(t, "value")),
                      effect = Str(Field(t, "effect"));
    line += key;
    if (!value.empty()) line += "=" + value;
    if (!effect.empty()) line += ":" + effect;
    if (Str(Field(t, "operator")) == "Exists" && value.empty()) {
      line += key.empty() && effect.empty() ? "op=Exists" : " op=Exists";
    }
    if (const Json* s = Field(t, "tolerationSeconds"); s != nullptr && s->is_number()) {
      line += " for " + ContainerNum(Int(s, 0)) + "s";
    }
    w.Write(0, line + "\n");
  }
}

}  // namespace kubectl::printers::internal
