import Foundation
import Synchronization
import SystemCalls
import ToolSupport

/// The receiver's questions to the person at the terminal, one at a time, each withdrawn when
/// the one who asked stops waiting.
///
/// One thread reads standard input for the whole process, so that a question can be withdrawn:
/// a `readLine` per question blocked its thread until Enter, so a question that timed out stayed
/// on screen and took the next "y" for itself, and Ctrl-C waited for Enter. Questions that come
/// while one is showing wait their turn; a line printed meanwhile (``print(_:)``) goes above the
/// question, which is then shown again, instead of onto its `[y/N]` line. A line typed while no
/// question shows answers nothing, and the person is told so. At the end of input every question
/// is answered no.
final class TerminalQuestions: Sendable {
    /// The process's questions (standard input and output are one each).
    static let shared = TerminalQuestions()

    struct Question {
        let id: UInt64
        let lines: [String]
        let prompt: String
        let answer: CheckedContinuation<Bool?, Never>
    }

    struct State {
        var showing: Question?
        var waiting: [Question] = []
        /// Withdrawn before they were put in line (cancelled at once).
        var withdrawn: Set<UInt64> = []
        var nextID: UInt64 = 0
        var reading = false
        var endOfInput = false
    }

    let state = Mutex(State())
    /// Whether standard output is a terminal (the line can then be cleared before a print).
    let terminal = CurrentProcess.isTerminal(1)

    /// Asks `lines` (already display-safe) followed by `prompt`; `true` for an answer starting
    /// with y or Y, `false` for any other answer or the end of input, `nil` when the calling task
    /// was cancelled first (the question is then taken off the screen).
    func ask(_ lines: [String], prompt: String) async -> Bool? {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (answer: CheckedContinuation<Bool?, Never>) in
                let question = Question(id: id, lines: lines, prompt: prompt, answer: answer)
                let settled: Bool?? = state.withLock { state in
                    if state.withdrawn.remove(id) != nil { return .some(nil) }
                    if state.endOfInput { return false }
                    if state.showing == nil {
                        state.showing = question
                        draw(question)
                    } else {
                        state.waiting.append(question)
                    }
                    return .none
                }
                if let settled { answer.resume(returning: settled) } else { startReading() }
            }
        } onCancel: {
            withdraw(id)
        }
    }

    /// Prints `line` (display-safe) above the question showing, if any, and shows it again; on
    /// standard error when `error`.
    func print(_ line: String, error: Bool = false) {
        state.withLock { state in
            guard let showing = state.showing else {
                if error { Output.error(line) } else { Output.line(line) }
                return
            }
            Output.text(terminal ? "\r\u{1B}[K" : "\n")
            if error { Output.error(line) } else { Output.line(line) }
            draw(showing)
        }
    }

    /// Takes question `id` off the screen (or out of line) and answers it `nil`.
    func withdraw(_ id: UInt64) {
        let withdrawn: Question? = state.withLock { state in
            if state.showing?.id == id {
                let question = state.showing
                Output.line("(withdrawn)")
                state.showing = nil
                showNext(&state)
                return question
            }
            if let index = state.waiting.firstIndex(where: { $0.id == id }) { return state.waiting.remove(at: index) }
            state.withdrawn.insert(id)
            return nil
        }
        withdrawn?.answer.resume(returning: nil)
    }

    /// One line typed: the answer to the question showing.
    func typed(_ line: String?) {
        let answered: [(Question, Bool)] = state.withLock { state in
            guard let line else {
                state.endOfInput = true
                let all = (state.showing.map { [$0] } ?? []) + state.waiting
                state.showing = nil
                state.waiting = []
                if !all.isEmpty { Output.line("") }
                return all.map { ($0, false) }
            }
            guard let showing = state.showing else {
                if !line.isEmpty { Output.line("(no question is waiting for an answer: '\(TerminalText.escaped(line))' answers nothing)") }
                return []
            }
            state.showing = nil
            showNext(&state)
            return [(showing, line.lowercased().hasPrefix("y"))]
        }
        for (question, value) in answered { question.answer.resume(returning: value) }
    }

    /// Shows the next question waiting, if any (with the lock held).
    private func showNext(_ state: inout State) {
        guard !state.waiting.isEmpty else { return }
        let next = state.waiting.removeFirst()
        state.showing = next
        draw(next)
    }

    /// Writes the question (with the lock held, so that no other line comes between).
    private func draw(_ question: Question) {
        for line in question.lines { Output.line(line) }
        Output.text(question.prompt)
    }

    /// Starts the reading thread, once.
    private func startReading() {
        let start = state.withLock { state in
            defer { state.reading = true }
            return !state.reading
        }
        guard start else { return }
        Thread.detachNewThread { [self] in
            while true {
                let line = readLine()
                typed(line)
                if line == nil { return }
            }
        }
    }
}
