#include "core/informer/reflector.h"

#include <utility>

#include "core/api/fields.h"
#include "core/api/kind.h"
#include "core/base/assert.h"
#include "core/sim/cause_scope.h"
#include "core/sim/trace.h"

namespace informer {
namespace {

// WatchErrorStatus is the error an ERROR event carries: a metav1.Status object when the API
// server sent one, else 410 (the watch cannot continue; relist).
base::Status WatchErrorStatus(const std::string& kind, const apiserver::WatchEvent& event) {
  if (event.object != nullptr && event.object->is_object()) {
    const api::Json& status = *event.object;
    auto code = status.find("code");
    auto message = status.find("message");
    if (code != status.end() && code->is_number_integer() && message != status.end() &&
        message->is_string() && code->get<int>() >= 400) {
      return base::Status(base::CodeFromHttp(code->get<int>()), message->get<std::string>());
    }
  }
  return base::Status(base::StatusCode::kGone, "watch of " + kind + " ended with an ERROR event");
}

}  // namespace

Reflector::Reflector(client::Client& client, sim::Scheduler& scheduler, const std::string& kind,
                     ReflectorOptions options, ReflectorCallbacks callbacks, sim::Prng* prng)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      callbacks_(std::move(callbacks)),
      backoff_(scheduler.clock().Now(), prng) {
  // A kind the server does not serve keeps its name: the list fails with the server's error and
  // the reflector backs off and retries, as reflector.go does while a CRD is not yet served.
  const api::KindInfo* info = client_.Discover(kind);
  kind_ = info != nullptr ? info->kind : kind;
}

Reflector::~Reflector() { Stop(); }

void Reflector::Run() {
  if (running_) return;
  running_ = true;
  ListAndWatch();
}

void Reflector::Stop() {
  running_ = false;
  EndSession();
  if (retry_event_.has_value()) scheduler_.Cancel(*retry_event_);
  retry_event_.reset();
  retry_at_.reset();
}

void Reflector::EndSession() {
  ++session_;
  if (watch_id_.has_value()) client_.StopWatch(*watch_id_);
  watch_id_.reset();
  if (resync_event_.has_value()) scheduler_.Cancel(*resync_event_);
  resync_event_.reset();
}

// mirrors reflector.go ListAndWatch (list, syncWith = store.Replace, startResync, watch)
void Reflector::ListAndWatch() {
  retry_event_.reset();
  retry_at_.reset();
  if (!running_) return;
  EndSession();
  const uint64_t session = session_;
  sim::Trace& trace = scheduler_.trace();

  int64_t before = trace.last_seq();
  apiserver::ListOptions list_options;
  list_options.label_selector = options_.label_selector;
  auto listed = client_.List(kind_, options_.namespace_, list_options);
  const int64_t list_seq = trace.last_seq() > before ? trace.last_seq() : trace.current_cause();
  if (!listed.ok()) {
    Fail(listed.status(), "list", list_seq);
    return;
  }
  ++lists_;
  for (const api::ObjectPtr& obj : listed.value()) {
    if (obj != nullptr) NoteResourceVersion(api::ResourceVersion(*obj));
  }

  apiserver::WatchOptions watch_options;
  watch_options.watcher = options_.name;
  watch_options.namespace_ = options_.namespace_;
  watch_options.label_selector = options_.label_selector;
  watch_options.resourceVersion = "";  // from now: the list's point in history (see header)
  watch_options.latency = options_.watch_latency;
  watch_options.traced = options_.traced;
  std::weak_ptr<int> alive = alive_;
  before = trace.last_seq();
  auto watch = client_.Watch(kind_, watch_options,
                             [this, alive, session](const apiserver::WatchEvent& event) {
                               if (alive.expired()) return;
                               OnWatchEvent(session, event);
                             });
  const int64_t watch_seq = trace.last_seq() > before ? trace.last_seq() : trace.current_cause();
  if (watch.ok()) watch_id_ = watch.value();

  if (callbacks_.replace) {
    const sim::CauseScope scope(trace, list_seq, sim::CauseScope::kIfKnown);
    std::vector<api::ObjectPtr> items;
    items.reserve(listed.value().size());
    for (const api::ObjectPtr& obj : listed.value()) {
      if (obj != nullptr) items.push_back(obj);
    }
    callbacks_.replace(items);
  }
  if (alive.expired() || session != session_ || !running_) return;  // stopped by a handler
  if (!watch.ok()) {
    Fail(watch.status(), "watch", watch_seq);
    return;
  }
  ArmResync(session, list_seq);
}

void Reflector::OnWatchEvent(uint64_t session, const apiserver::WatchEvent& event) {
  if (session != session_ || !running_) return;
  if (event.type == apiserver::WatchEventType::kError) {
    watch_id_.reset();  // the API server already ended it
    Fail(WatchErrorStatus(kind_, event), "watch",
         event.trace_seq != 0 ? event.trace_seq : scheduler_.trace().current_cause());
    return;
  }
  if (event.object == nullptr) return;
  NoteResourceVersion(api::ObjectMeta(*event.object).ResourceVersion());
  if (callbacks_.watch_event) callbacks_.watch_event(event);
}

// mirrors reflector.go: the failure goes to the watchErrorHandler (klog "failed to list" /
// "watch of X ended with"), then wait.BackoffUntil sleeps backoffManager.Backoff() before the
// next ListAndWatch.
void Reflector::Fail(const base::Status& status, const std::string& verb, int64_t cause) {
  ++failures_;
  sim::Trace& trace = scheduler_.trace();
  const int64_t seq = !options_.traced
                          ? cause
                          : trace.Emit("informer.error", {{"informer", options_.name},
                                                          {"kind", kind_},
                                                          {"verb", verb},
                                                          {"code", status.http_code()},
                                                          {"message", status.message()},
                                                          {"cause", cause}});
  std::weak_ptr<int> alive = alive_;
  if (callbacks_.on_error) {
    const sim::CauseScope scope(trace, seq, sim::CauseScope::kIfKnown);
    callbacks_.on_error(status, verb);
  }
  if (alive.expired() || !running_) return;  // stopped by the error handler
  EndSession();
  const base::Duration wait = backoff_.Next(scheduler_.clock().Now());
  retry_at_ = scheduler_.clock().Now() + wait;
  retry_event_ = scheduler_.After(
      wait, "informer relist " + options_.name,
      [this, alive] {
        if (alive.expired()) return;
        ListAndWatch();
      },
      seq != 0 ? seq : cause);
}

// mirrors reflector.go startResync: every resyncPeriod, ask ShouldResync, then store.Resync().
void Reflector::ArmResync(uint64_t session, int64_t cause) {
  if (options_.resync_period <= 0) return;
  std::weak_ptr<int> alive = alive_;
  resync_event_ = scheduler_.After(
      options_.resync_period, "informer resync " + options_.name,
      [this, alive, session, cause] {
        if (alive.expired() || session != session_ || !running_) return;
        resync_event_.reset();
        if (!callbacks_.should_resync || callbacks_.should_resync()) {
          if (callbacks_.resync) callbacks_.resync();
        }
        if (alive.expired() || session != session_ || !running_) return;
        ArmResync(session, cause);
      },
      cause);
}

void Reflector::NoteResourceVersion(const std::string& rv) {
  const int64_t value = api::ParseResourceVersion(rv);
  if (value < 0) return;
  if (value > api::ParseResourceVersion(last_sync_rv_)) last_sync_rv_ = rv;
}

}  // namespace informer
