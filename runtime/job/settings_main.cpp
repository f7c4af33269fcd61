// pure-settings: prints the table of run-time settings (settings.cpp), for
// `purerun --help` (--help) and for the README's table (--markdown, written
// by tools/gen-readme-settings.py and checked by a test).
#include <cstdio>
#include <cstring>
#include <string>

#include "job/settings.h"

namespace {

// Prints `text` in lines of at most 78 columns, each indented by 6.
void print_wrapped(const std::string& text) {
  constexpr std::size_t kWidth = 78 - 6;
  std::size_t line = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::size_t word = end - start;
    if (line > 0 && line + 1 + word > kWidth) {
      std::printf("\n");
      line = 0;
    }
    std::printf("%s%.*s", line == 0 ? "      " : " ", static_cast<int>(word), text.c_str() + start);
    line += (line == 0 ? 0 : 1) + word;
    start = end + 1;
  }
  std::printf("\n");
}

void print_help() {
  std::printf("Settings (environment variables, or purerun options that set them):\n");
  for (const pure::settings::Setting& s : pure::settings::table()) {
    std::printf("  %s, %s VALUE\n", s.name, pure::settings::option_of(s.name).c_str());
    print_wrapped(std::string(s.help) + ". Values: " + s.values + "; default: " + s.fallback +
                  ".");
  }
}

void print_markdown() {
  std::printf("| setting | purerun option | meaning | values | default |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const pure::settings::Setting& s : pure::settings::table())
    std::printf("| `%s` | `%s` | %s | %s | %s |\n", s.name,
                pure::settings::option_of(s.name).c_str(), s.help, s.values, s.fallback);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--help") == 0) {
    print_help();
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--markdown") == 0) {
    print_markdown();
    return 0;
  }
  std::fprintf(stderr, "usage: pure-settings --help | --markdown\n");
  return 2;
}
