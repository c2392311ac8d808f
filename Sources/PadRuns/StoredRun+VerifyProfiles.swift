import PadArchive
import PadProfiles
import PadVocabulary

extension StoredRun {
    /// Each profile's YAML kept in the archive (``RunFile/profile(_:)``) is the one the run decided
    /// with: it parses, and its ``PadProfiles/Profile/definitionHash`` is the manifest's. `compare`
    /// re-decides swept scores with it and `merge` takes it over, so an edited threshold there
    /// would pass unseen while every rate still matched `decisions.csv`. Archives written before
    /// the manifest recorded the hashes are not checked. Throws ``StoredRunMismatch``.
    func verifyProfiles() throws {
        guard let hashes = manifest.profileDefinitions else { return }
        for name in manifest.profiles {
            let member = RunFile.profile(name)
            let at = path + ":" + MessageText.quote(member)
            guard contains(member) else {
                throw StoredRunMismatch("\(at) is missing: the archive was edited or damaged")
            }
            let profile: Profile
            do {
                profile = try ProfileLoader().load(
                    yaml: String(decoding: try archive.entry(named: member), as: UTF8.self), file: at)
            } catch {
                throw StoredRunMismatch("\(at) does not load: \(error)")
            }
            if let recorded = hashes[name], profile.definitionHash != recorded {
                throw StoredRunMismatch(
                    "\(at) has definition hash \(profile.definitionHash), the manifest \(recorded): the profile "
                        + "was edited after the run")
            }
        }
    }
}
