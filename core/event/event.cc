#include "core/event/event.h"

namespace event {

const char* EventTypeName(EventType type) {
  switch (type) {
    case EventType::kCreate:
      return "Create";
    case EventType::kUpdate:
      return "Update";
    case EventType::kDelete:
      return "Delete";
    case EventType::kGeneric:
      return "Generic";
  }
  return "Unknown";
}

}  // namespace event
