#pragma once
// The page's language: every text a learner reads is written at its point of use in English and
// Chinese, Tr("Pods", "Pod 列表"), so no string can exist in one language only. The current
// language is the lesson pane's (SetLanguage in lesson_pane.h: the `lang=` URL parameter, the
// language button, localStorage).

namespace web {

// Chinese reports whether the page shows Chinese.
bool Chinese();

// Tr picks the text of the current language.
inline const char* Tr(const char* en, const char* zh) { return Chinese() ? zh : en; }

}  // namespace web
