import Dispatch
import Synchronization

/// Runs one-item requests from many threads as batches: a thread that arrives while fewer than
/// `runners` batches are running takes every waiting request (up to `maxBatch`, its own
/// included) and runs them as one batch; a thread that arrives while all runners are busy waits
/// for a runner to take its request. So batches form exactly when requests queue up (more samples
/// in flight than cores), and a lone request runs at once, never held back for company.
///
/// Example: `OnnxSessionTests.batchesEqualSingleRuns` in `Tests/PadONNXTests/OnnxSessionTests.swift`.
///
/// Each item is a tensor of `itemShape` (the model's input without its batch dimension); the batch
/// is the items stacked on a new leading dimension, and each output is split back along it.
package final class OnnxBatcher: Sendable {
    package let session: OnnxSession
    package let itemShape: [Int]
    package let maxBatch: Int
    package let runners: Int
    private let state = Mutex(State())

    private struct State {
        var queue: [Request] = []
        var running = 0
        /// Batches run and items in them, for the manifest (mean batch size).
        var batches = 0
        var items = 0
    }

    /// One waiting item: its input, and where its outputs (or error) are left for its thread.
    private final class Request: Sendable {
        let input: [Float]
        let done = DispatchSemaphore(value: 0)
        private let outcome = Mutex<Result<[OnnxTensor], OnnxError>>(.failure(OnnxError(.run, "not run")))
        /// Written once by the runner before `done` is signalled, read by the owner after it waits.
        var result: Result<[OnnxTensor], OnnxError> {
            get { outcome.withLock { $0 } }
            set { outcome.withLock { $0 = newValue } }
        }
        init(input: [Float]) { self.input = input }
    }

    /// `maxBatch` 1 runs every item alone (a model whose batch dimension is fixed at 1).
    package init(session: OnnxSession, itemShape: [Int], maxBatch: Int, runners: Int) {
        self.session = session
        self.itemShape = itemShape
        self.maxBatch = max(1, maxBatch)
        self.runners = max(1, runners)
    }

    /// Batches run so far and the items they held.
    package var counts: (batches: Int, items: Int) { state.withLock { ($0.batches, $0.items) } }

    /// The model's outputs for one item (each without the batch dimension).
    package func run(_ input: [Float]) throws(OnnxError) -> [OnnxTensor] {
        let request = Request(input: input)
        let leads = state.withLock { state in
            state.queue.append(request)
            guard state.running < runners else { return false }
            state.running += 1
            return true
        }
        if leads { drain() }
        request.done.wait()
        return try request.result.get()
    }

    /// Runs batches until the queue is empty, then stops being a runner.
    private func drain() {
        while true {
            let batch: [Request] = state.withLock { state in
                let taken = Array(state.queue.prefix(maxBatch))
                state.queue.removeFirst(taken.count)
                if taken.isEmpty { state.running -= 1 } else { state.batches += 1; state.items += taken.count }
                return taken
            }
            if batch.isEmpty { return }
            let outcome: Result<[OnnxTensor], OnnxError>
            do throws(OnnxError) {
                // A batch of one is its item as it is (no copy on the common path of one sample per core).
                let input = batch.count == 1 ? batch[0].input : batch.flatMap(\.input)
                outcome = .success(try session.run(input, shape: [batch.count] + itemShape))
            } catch { outcome = .failure(error) }
            for (index, request) in batch.enumerated() {
                request.result = outcome.map { tensors in
                    tensors.map { tensor in
                        let per = tensor.values.count / max(1, batch.count)
                        return OnnxTensor(
                            shape: Array(tensor.shape.dropFirst()),
                            values: Array(tensor.values[(index * per)..<((index + 1) * per)]))
                    }
                }
                request.done.signal()
            }
        }
    }
}
