import ArgumentParser
import PadBench

@main
struct Padbench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Evaluate face PAD and quality estimators.")
    func run() throws {}
}
