#pragma once

// Reads newline-delimited messages from a file descriptor with a hard cap on line length.
// A line longer than the cap is never held in memory: its bytes are dropped as they arrive, up to
// its newline, and the caller is told once that a line was too long. A second descriptor (the read
// end of a wake pipe) interrupts a blocked read so another thread can stop the reader.
// The reader does not own either descriptor.

#include <cstddef>
#include <string>
#include <vector>

namespace nd_mcp {

class LineReader {
public:
    enum class Status {
        Line,    // a complete line, without its "\n" (and without a "\r" before it)
        TooLong, // a line exceeded the cap and was skipped up to its newline
        End,     // the input reached end of file
        Stopped, // the wake descriptor became readable
        Failed,  // a read error other than EINTR/EAGAIN
    };

    // wake_fd may be -1 when nothing needs to interrupt the reader.
    LineReader(int fd, int wake_fd, std::size_t max_line_bytes);

    // Fills line on Status::Line. An unterminated last line before end of file counts as a line.
    Status next(std::string& line);

    std::size_t max_line_bytes() const { return m_max_line_bytes; }

private:
    enum class FillResult { Data, Eof, Stopped, Failed };
    FillResult fill();

    int m_fd;
    int m_wake_fd;
    std::size_t m_max_line_bytes;
    std::vector<char> m_buffer;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    bool m_eof = false;
};

} // namespace nd_mcp
