#pragma once
// Quantity: the part of Kubernetes resource quantities ("500m", "5Gi", "1") the operator needs to
// fill `ray start --num-cpus/--memory` and the desired CPU/memory of RayCluster status.
// Mirrors: k8s.io/apimachinery pkg/api/resource/quantity.go (ParseQuantity, Add, Mul, Value,
// String for the DecimalSI and BinarySI formats).
// Simplified: values are held as integer thousandths (milli-units) in int64, enough for any
// cluster the lab builds; DecimalExponent ("1e3") is read but printed as DecimalSI.
// Pure functions; no state.

#include <cstdint>
#include <optional>
#include <string>

namespace kuberay {

struct Quantity {
  int64_t milli = 0;     // value × 1000
  bool binary = false;   // BinarySI ("Ki", "Mi", "Gi"…) rather than DecimalSI

  // Value is the integer value rounded up (Quantity.Value: "1500m" → 2).
  int64_t Value() const;
  // Add is Quantity.Add: a zero receiver takes y's format.
  void Add(const Quantity& y);
  // Mul is Quantity.Mul by an integer.
  void Mul(int64_t n) { milli *= n; }
  // String is the canonical form: "2", "1500m", "6Gi", "0".
  std::string String() const;
};

// ParseQuantity reads a quantity string; nullopt when it is not one.
std::optional<Quantity> ParseQuantity(const std::string& s);

}  // namespace kuberay
