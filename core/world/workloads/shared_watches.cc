#include "core/world/workloads/shared_watches.h"

#include <utility>

#include "core/base/assert.h"

namespace world {

SharedWatches::SharedWatches(client::Client& client, sim::Scheduler& scheduler,
                             ObjectWatch::Options options)
    : client_(client), scheduler_(scheduler), options_(std::move(options)) {
  RLAB_ASSERT(options_.field_selector.empty(), "a shared watch sees the whole kind");
}

std::unique_ptr<SharedWatches> SharedWatches::Make(client::Client& client,
                                                   sim::Scheduler& scheduler,
                                                   const std::string& watcher, bool traced) {
  ObjectWatch::Options options;
  options.watcher = watcher;
  options.traced = traced;
  return std::make_unique<SharedWatches>(client, scheduler, std::move(options));
}

// mirrors client-go informers/factory.go InformerFor: the first caller creates, later ones share.
ObjectWatch& SharedWatches::Watch(const std::string& kind, ObjectWatch::Handler handler) {
  auto it = watches_.find(kind);
  if (it == watches_.end()) {
    auto watch = std::make_unique<ObjectWatch>(client_, scheduler_, kind, options_,
                                               std::move(handler));
    return *watches_.emplace(kind, std::move(watch)).first->second;
  }
  it->second->AddHandler(std::move(handler));
  return *it->second;
}

ObjectWatch* SharedWatches::Find(const std::string& kind) const {
  auto it = watches_.find(kind);
  return it == watches_.end() ? nullptr : it->second.get();
}

}  // namespace world
