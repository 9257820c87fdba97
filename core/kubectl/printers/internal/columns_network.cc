// Printer columns of the networking kinds: Service, Endpoints, EndpointSlice, Ingress,
// NetworkPolicy. Mirrors kubernetes pkg/printers/internalversion/printers.go (printService,
// printEndpoints, printEndpointSlice, printIngress, printNetworkPolicy).
#include <set>

#include "core/kubectl/printers/internal/columns.h"

namespace kubectl::printers::internal {
namespace {

using api::Json;
using base::SimTime;
using Cells = std::vector<std::string>;

// mirrors printers.go loadBalancerStatusStringer: sorted unique IPs or hostnames, clipped unless
// wide.
std::string LoadBalancerStatus(const Json* lb_status, bool wide) {
  std::set<std::string> result;
  for (const Json* ing : Items(Field(lb_status, "ingress"))) {
    if (!Str(Field(ing, "ip")).empty()) {
      result.insert(Str(Field(ing, "ip")));
    } else if (!Str(Field(ing, "hostname")).empty()) {
      result.insert(Str(Field(ing, "hostname")));
    }
  }
  std::string r = Join(std::vector<std::string>(result.begin(), result.end()), ",");
  if (!wide && r.size() > 16) r = r.substr(0, 13) + "...";
  return r;
}

Cells ServiceRow(const Json& svc, SimTime now, bool wide) {
  const Json* spec = Field(&svc, "spec");
  std::string type = Str(Field(spec, "type"));
  if (type.empty()) type = "ClusterIP";  // API server default
  std::string cluster_ip = "<none>";
  if (std::vector<std::string> ips = Strings(Field(spec, "clusterIPs")); !ips.empty()) {
    cluster_ip = ips[0];
  } else if (!Str(Field(spec, "clusterIP")).empty()) {
    cluster_ip = Str(Field(spec, "clusterIP"));  // clusterIPs is defaulted from clusterIP
  }
  const std::vector<std::string> external_ips = Strings(Field(spec, "externalIPs"));
  std::string external = "<unknown>";
  if (type == "ClusterIP" || type == "NodePort") {
    external = external_ips.empty() ? "<none>" : Join(external_ips, ",");
  } else if (type == "LoadBalancer") {
    const std::string lb = LoadBalancerStatus(Path(svc, {"status", "loadBalancer"}), wide);
    std::vector<std::string> all;
    if (!lb.empty()) all.push_back(lb);
    all.insert(all.end(), external_ips.begin(), external_ips.end());
    external = !external_ips.empty() ? Join(all, ",") : !lb.empty() ? lb : "<pending>";
  } else if (type == "ExternalName") {
    external = Str(Field(spec, "externalName"));
  }
  std::vector<std::string> ports;
  for (const Json* p : Items(Field(spec, "ports"))) {
    std::string protocol = Str(Field(p, "protocol"));
    if (protocol.empty()) protocol = "TCP";
    const int64_t node_port = Int(Field(p, "nodePort"), 0);
    ports.push_back(std::to_string(Int(Field(p, "port"), 0)) +
                    (node_port > 0 ? ":" + std::to_string(node_port) : "") + "/" + protocol);
  }
  const std::string port_cell = ports.empty() ? "<none>" : Join(ports, ",");
  return {api::Name(svc),
          type,
          cluster_ip,
          external,
          port_cell,
          Age(svc, now),
          FormatLabels(Field(spec, "selector"))};
}

// mirrors printers.go formatEndpoints (ports = nil: every port)
std::string FormatEndpoints(const Json& ep) {
  const std::vector<const Json*> subsets = Items(Field(&ep, "subsets"));
  if (subsets.empty()) return "<none>";
  std::vector<std::string> list;
  const size_t max = 3;
  bool more = false;
  size_t count = 0;
  for (const Json* ss : subsets) {
    const std::vector<const Json*> addresses = Items(Field(ss, "addresses"));
    const std::vector<const Json*> ports = Items(Field(ss, "ports"));
    if (ports.empty()) {
      count += addresses.size();
      for (const Json* a : addresses) {
        if (list.size() == max) {
          more = true;
          break;
        }
        list.push_back(Str(Field(a, "ip")));
      }
      continue;
    }
    for (const Json* port : ports) {
      count += addresses.size();
      for (const Json* a : addresses) {
        if (list.size() == max) {
          more = true;
          break;
        }
        list.push_back(
            JoinHostPort(Str(Field(a, "ip")), std::to_string(Int(Field(port, "port"), 0))));
      }
    }
  }
  const std::string ret = Join(list, ",");
  return more ? ret + " + " + std::to_string(count - max) + " more..." : ret;
}

Cells EndpointsRow(const Json& ep, SimTime now, bool) {
  return {api::Name(ep), FormatEndpoints(ep), Age(ep, now)};
}

std::string ListWithMore(const std::vector<std::string>& list, bool more, size_t count,
                         size_t max) {
  const std::string ret = Join(list, ",");
  if (more) return ret + " + " + std::to_string(count - max) + " more...";
  return ret.empty() ? "<unset>" : ret;
}

Cells EndpointSliceRow(const Json& slice, SimTime now, bool) {
  std::vector<std::string> ports;
  bool more = false;
  size_t count = 0;
  for (const Json* p : Items(Field(&slice, "ports"))) {
    if (ports.size() < 3) {
      const Json* port = Field(p, "port");
      const Json* name = Field(p, "name");
      ports.push_back(port != nullptr && port->is_number()   ? std::to_string(Int(port, 0))
                      : name != nullptr && name->is_string() ? Str(name)
                                                             : "*");
    } else {
      more = true;
    }
    ++count;
  }
  const std::string port_cell = ListWithMore(ports, more, count, 3);
  std::vector<std::string> addresses;
  more = false;
  count = 0;
  for (const Json* e : Items(Field(&slice, "endpoints"))) {
    for (const Json* a : Items(Field(e, "addresses"))) {
      if (addresses.size() < 3) {
        addresses.push_back(Str(a));
      } else {
        more = true;
      }
      ++count;
    }
  }
  return {api::Name(slice), Str(Field(&slice, "addressType")), port_cell,
          ListWithMore(addresses, more, count, 3), Age(slice, now)};
}

Cells IngressRow(const Json& ing, SimTime now, bool wide) {
  const Json* spec = Field(&ing, "spec");
  const Json* class_name = Field(spec, "ingressClassName");
  std::vector<std::string> hosts;
  const std::vector<const Json*> rules = Items(Field(spec, "rules"));
  bool more = false;
  for (const Json* rule : rules) {
    if (hosts.size() == 3) more = true;
    if (!more && !Str(Field(rule, "host")).empty()) hosts.push_back(Str(Field(rule, "host")));
  }
  std::string host_cell = hosts.empty() ? "*" : Join(hosts, ",");
  if (!hosts.empty() && more) host_cell += " + " + std::to_string(rules.size() - 3) + " more...";
  return {api::Name(ing),
          class_name != nullptr && class_name->is_string() ? Str(class_name) : "<none>",
          host_cell,
          LoadBalancerStatus(Path(ing, {"status", "loadBalancer"}), wide),
          Items(Field(spec, "tls")).empty() ? "80" : "80, 443",
          Age(ing, now)};
}

Cells NetworkPolicyRow(const Json& np, SimTime now, bool) {
  return {api::Name(np), FormatLabelSelector(Path(np, {"spec", "podSelector"})), Age(np, now)};
}

}  // namespace

std::optional<KindPrinter> NetworkPrinterFor(const std::string& kind) {
  if (kind == "Service") {
    return KindPrinter{
        Columns({"NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"}, {"SELECTOR"}),
        ServiceRow};
  }
  if (kind == "Endpoints") return KindPrinter{Columns({"NAME", "ENDPOINTS", "AGE"}), EndpointsRow};
  if (kind == "EndpointSlice") {
    return KindPrinter{Columns({"NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"}),
                       EndpointSliceRow};
  }
  if (kind == "Ingress") {
    return KindPrinter{Columns({"NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"}), IngressRow};
  }
  if (kind == "NetworkPolicy") {
    return KindPrinter{Columns({"NAME", "POD-SELECTOR", "AGE"}), NetworkPolicyRow};
  }
  return std::nullopt;
}

}  // namespace kubectl::printers::internal
